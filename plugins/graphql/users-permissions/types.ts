/**
 * users-permissions' own types in either shape. Strapi 5 keeps Strapi 4's payloads and inputs;
 * its `UsersPermissionsMe` gains `documentId`, and the users' writes still answer
 * `UsersPermissionsUserEntityResponse`, now `{ data: UsersPermissionsUser }` (the flat document).
 */
import { objectType } from 'nexus';
import type { BuildContext } from '../schema/context.ts';
import { usersPermissionsTypes } from '../schema/extra.ts';

export const USER_UID = 'plugin::users-permissions.user';
export const USER_RESPONSE = 'UsersPermissionsUserEntityResponse';

const flatMe = () =>
  objectType({
    name: 'UsersPermissionsMe',
    definition(t) {
      t.nonNull.id('id');
      t.nonNull.id('documentId');
      t.nonNull.string('username');
      t.string('email');
      t.boolean('confirmed');
      t.boolean('blocked');
      t.field('role', { type: 'UsersPermissionsMeRole' });
    },
  });

/** The payloads and inputs of the auth operations and of the roles' writes, in the build's shape. */
export function authTypes(ctx: Pick<BuildContext, 'shape'>) {
  const types = usersPermissionsTypes();
  return ctx.shape === 'flat' ? [...types.filter((t) => t.name !== 'UsersPermissionsMe'), flatMe()] : types;
}

/**
 * The flat shape's user response, with its role (the planner reads `data` as a flat document); none
 * when the build already generated it (then the generator set its role).
 */
export function flatUserResponse(ctx: BuildContext) {
  if (ctx.shape !== 'flat' || ctx.roles.has(USER_RESPONSE)) return [];
  const user = ctx.names.get(USER_UID);
  if (!user) return [];
  ctx.roles.set(USER_RESPONSE, { kind: 'entityResponse', uid: USER_UID });
  return [
    objectType({
      name: USER_RESPONSE,
      definition(t) {
        t.field('data', { type: user });
      },
    }),
  ];
}
