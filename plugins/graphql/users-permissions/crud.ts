/**
 * users-permissions' writes as Strapi 4's GraphQL plugin replaces the shadow CRUD's:
 * `create/update/deleteUsersPermissionsUser` (an entity response), `create/update/
 * deleteUsersPermissionsRole` (`{ok}` payloads) and `emailConfirmation` (`{jwt, user}`). Each
 * calls the REST route's handler (same checks, errors, role rules) after the same permission
 * check. A user is answered by the planner, in one statement, so its role can be selected.
 * Strapi 5 keeps all of them as they were: its user response is `{ data: UsersPermissionsUser }`,
 * the flat document (types.ts), planned as a `findOne` root answering that response.
 */
import type { GraphQLFieldResolver } from 'graphql';
import { arg, extendType, idArg, nonNull, stringArg } from 'nexus';
import { type App, isAppError } from '../../../core/index.ts';
import { FieldFailure } from '../errors.ts';
import type { ExecuteContext } from '../operation.ts';
import type { RootPlan } from '../plan/root.ts';
import { allow, byName, plainInput, withHttp } from '../resolver-context.ts';
import { readRoot } from '../run.ts';
import type { SchemaExtension } from '../schema/build.ts';
import type { BuildContext } from '../schema/context.ts';
import { callHandler, type Handler, handlerOf } from './call.ts';
import { flatUserResponse, USER_RESPONSE, USER_UID } from './types.ts';
const UP = 'plugin::users-permissions.';

type Resolver = GraphQLFieldResolver<unknown, unknown>;
type Args = Record<string, unknown>;

export interface CrudHandlers {
  /** the /users routes' handlers by action */
  users: () => Record<string, Handler>;
  /** the roles API's handlers by action (`role.createRole`, …) */
  roles: () => Record<string, Handler>;
  /** the /auth handlers (`emailConfirmationAnswering` among them) */
  auth: () => Record<string, Handler>;
}

const params = (args: Args): Record<string, string> => (typeof args.id === 'string' ? { id: args.id } : {});

/**
 * Which of the writes are there: a type the app's `register` disabled (`shadowCRUD(uid).disable()`)
 * has no input nor entity response to write with, so its writes are left out too.
 */
export interface CrudTypes {
  users: boolean;
  roles: boolean;
}

/** The writes, for the build (`ctx.shape`; the flat shape's user response is defined here unless generated). */
export const usersPermissionsCrud =
  (app: App, handlers: CrudHandlers, on: CrudTypes = { users: true, roles: true }) =>
  (ctx: BuildContext): SchemaExtension =>
    crud(app, handlers, on, ctx);

function crud(app: App, handlers: CrudHandlers, on: CrudTypes, ctx: BuildContext): SchemaExtension {
  /** A user write: planned first (a selection that cannot be planned writes nothing), then read back. */
  const userWrite =
    (kind: 'create' | 'update' | 'destroy'): Resolver =>
    async (_source, args: Args, context, info) => {
      const ctx = withHttp<ExecuteContext>(context);
      const action = `${UP}user.${kind}`;
      try {
        allow(ctx, action);
        const read = { uid: USER_UID, kind: 'findOne' as const, action };
        const plan: RootPlan = ctx.plan(info, read);
        const answer = async (id: unknown) => readRoot(app, { ...plan, id: String(id) });
        const handler = handlerOf(handlers.users(), kind);
        if (kind === 'destroy') {
          // the answer is the user as it was; the handler refuses an unknown id (404)
          const text = await answer(args.id);
          await callHandler(handler, ctx.http, {}, params(args));
          return JSON.parse(text) as unknown;
        }
        const user = (await callHandler(handler, ctx.http, plainInput(args.data), params(args))) as Args;
        return JSON.parse(await answer(user.id)) as unknown;
      } catch (err) {
        throw isAppError(err) ? err : new FieldFailure(err);
      }
    };

  const roleWrite =
    (action: 'createRole' | 'updateRole' | 'deleteRole'): Resolver =>
    async (_source, args: Args, context) => {
      const ctx = withHttp(context);
      allow(ctx, `${UP}role.${action}`);
      const handler = handlerOf(handlers.roles(), `role.${action}`);
      return callHandler(handler, ctx.http, action === 'deleteRole' ? {} : plainInput(args.data), params(args));
    };

  const emailConfirmation: Resolver = async (_source, args: Args, context) => {
    const ctx = withHttp(context);
    allow(ctx, `${UP}auth.emailConfirmation`);
    const handler = handlerOf(handlers.auth(), 'emailConfirmationAnswering');
    return callHandler(handler, ctx.http, { confirmation: args.confirmation });
  };

  const types = [
    ...(on.users ? flatUserResponse(ctx) : []),
    extendType({
      type: 'Mutation',
      definition(t) {
        const id = { id: nonNull(idArg()) };
        const roleData = { data: nonNull(arg({ type: 'UsersPermissionsRoleInput' })) };
        const userData = { data: nonNull(arg({ type: 'UsersPermissionsUserInput' })) };
        if (on.roles) {
          t.field('createUsersPermissionsRole', {
            type: 'UsersPermissionsCreateRolePayload',
            description: 'Create a new role',
            args: roleData,
          });
          t.field('updateUsersPermissionsRole', {
            type: 'UsersPermissionsUpdateRolePayload',
            description: 'Update an existing role',
            args: { ...id, ...roleData },
          });
          t.field('deleteUsersPermissionsRole', {
            type: 'UsersPermissionsDeleteRolePayload',
            description: 'Delete an existing role',
            args: id,
          });
        }
        if (on.users) {
          const user = USER_RESPONSE;
          t.nonNull.field('createUsersPermissionsUser', {
            type: user,
            description: 'Create a new user',
            args: userData,
          });
          t.nonNull.field('updateUsersPermissionsUser', {
            type: user,
            description: 'Update an existing user',
            args: { ...id, ...userData },
          });
          t.nonNull.field('deleteUsersPermissionsUser', {
            type: user,
            description: 'Delete an existing user',
            args: id,
          });
        }
        t.field('emailConfirmation', {
          type: 'UsersPermissionsLoginPayload',
          description: 'Confirm an email users email address',
          args: { confirmation: nonNull(stringArg()) },
        });
      },
    }),
  ];

  const ok = { ok: byName };
  return {
    types,
    resolvers: {
      Mutation: {
        createUsersPermissionsRole: roleWrite('createRole'),
        updateUsersPermissionsRole: roleWrite('updateRole'),
        deleteUsersPermissionsRole: roleWrite('deleteRole'),
        createUsersPermissionsUser: userWrite('create'),
        updateUsersPermissionsUser: userWrite('update'),
        deleteUsersPermissionsUser: userWrite('destroy'),
        emailConfirmation,
      },
      UsersPermissionsCreateRolePayload: ok,
      UsersPermissionsUpdateRolePayload: ok,
      UsersPermissionsDeleteRolePayload: ok,
    },
  };
}
