/**
 * users-permissions' operations as Strapi 4's GraphQL plugin has them: `me`, `login`,
 * `register`, `forgotPassword`, `resetPassword`, `changePassword`. Each calls the REST route's
 * handler (same checks, rate limits, emails and errors); a caller needs the route's action,
 * as Strapi 4's resolvers are authorized against the same permissions. Strapi 5 has the same
 * operations and types, but for `UsersPermissionsMe.documentId` (types.ts).
 */
import type { GraphQLFieldResolver } from 'graphql';
import { arg, extendType, nonNull, stringArg } from 'nexus';
import { type App, type Doc, isPlainObject, resolveFilters, unauthorized } from '../../../core/index.ts';
import { allow, byName, plainInput, withHttp } from '../resolver-context.ts';
import type { SchemaExtension } from '../schema/build.ts';
import type { BuildContext } from '../schema/context.ts';
import { callHandler, type Handler, handlerOf } from './call.ts';
import { authTypes, USER_UID } from './types.ts';
const AUTH = 'plugin::users-permissions.auth.';

type Resolver = GraphQLFieldResolver<unknown, unknown>;

const plain = (...names: string[]) => Object.fromEntries(names.map((name) => [name, byName]));

/** A user with its role, as `me` answers (the users' REST `me` route reads the same row). */
async function readMe(app: App, id: unknown): Promise<Doc | null> {
  const filters = resolveFilters(app.registry, USER_UID, { id: { $eq: Number(id) } });
  return app.documents(USER_UID).findFirst({ filters, populate: { role: {} } });
}

/** The operations, for the shape of the build (`ctx.shape`). */
export const usersPermissionsOperations =
  (app: App, handlers: () => Record<string, Handler>) =>
  (ctx: Pick<BuildContext, 'shape'>): SchemaExtension =>
    operations(app, handlers, ctx);

function operations(
  app: App,
  handlers: () => Record<string, Handler>,
  ctx: Pick<BuildContext, 'shape'>,
): SchemaExtension {
  /** A mutation calling the REST handler of `plugin::users-permissions.auth.<action>`. */
  const viaRest =
    (action: string, input: (args: Record<string, unknown>) => Record<string, unknown>): Resolver =>
    async (_source, args, context) => {
      const { http } = withHttp(context);
      allow(context, AUTH + action);
      return callHandler(handlerOf(handlers(), action), http, input(args));
    };
  const inputArg = (args: Record<string, unknown>): Record<string, unknown> => plainInput(args.input);
  const asIs = (args: Record<string, unknown>) => ({ ...args });

  const meQuery: Resolver = async (_source, _args, context) => {
    const auth = allow(context, 'plugin::users-permissions.user.me');
    // an API token or the Public role has no "me"
    if (auth.strategy !== 'users-permissions' || !auth.credentials) throw unauthorized('Unauthorized');
    const user = await readMe(app, auth.credentials.id);
    if (!user) throw unauthorized('Unauthorized');
    return user;
  };
  // a login's user is read without its role (as REST answers it): read when asked for
  const role: Resolver = async (source) => {
    if (!isPlainObject(source)) return null;
    if (source.role !== undefined) return source.role;
    return (await readMe(app, source.id))?.role ?? null;
  };

  const types = [
    // the payloads of this module's operations and of the users' and roles' writes (crud.ts)
    ...authTypes(ctx),
    extendType({
      type: 'Query',
      definition(t) {
        t.field('me', { type: 'UsersPermissionsMe' });
      },
    }),
    extendType({
      type: 'Mutation',
      definition(t) {
        const input = (type: string) => ({ input: arg({ type: nonNull(type) }) });
        t.nonNull.field('login', { type: 'UsersPermissionsLoginPayload', args: input('UsersPermissionsLoginInput') });
        t.nonNull.field('register', {
          type: 'UsersPermissionsLoginPayload',
          description: 'Register a user',
          args: input('UsersPermissionsRegisterInput'),
        });
        t.field('forgotPassword', {
          type: 'UsersPermissionsPasswordPayload',
          description: 'Request a reset password token',
          args: { email: nonNull(stringArg()) },
        });
        const passwords = { password: nonNull(stringArg()), passwordConfirmation: nonNull(stringArg()) };
        t.field('resetPassword', {
          type: 'UsersPermissionsLoginPayload',
          description: 'Reset user password. Confirm with a code (resetToken from forgotPassword)',
          args: { ...passwords, code: nonNull(stringArg()) },
        });
        t.field('changePassword', {
          type: 'UsersPermissionsLoginPayload',
          description: 'Change user password. Confirm with the current password.',
          args: { currentPassword: nonNull(stringArg()), ...passwords },
        });
      },
    }),
  ];

  const me = ctx.shape === 'flat' ? ['id', 'documentId'] : ['id'];
  return {
    types,
    resolvers: {
      Query: { me: meQuery },
      Mutation: {
        // Strapi's login input has `provider` (always `local` here: the REST route is local's)
        login: viaRest('callback', (args) => {
          const { identifier, password } = inputArg(args);
          return { identifier, password };
        }),
        register: viaRest('register', inputArg),
        forgotPassword: viaRest('forgotPassword', asIs),
        resetPassword: viaRest('resetPassword', asIs),
        changePassword: viaRest('changePassword', asIs),
      },
      UsersPermissionsMe: { ...plain(...me, 'username', 'email', 'confirmed', 'blocked'), role },
      UsersPermissionsMeRole: plain('id', 'name', 'description', 'type'),
      UsersPermissionsLoginPayload: plain('jwt', 'user'),
      UsersPermissionsPasswordPayload: plain('ok'),
    },
  };
}
