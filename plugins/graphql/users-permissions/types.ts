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

/** The payloads and inputs of the auth operations and of the roles' writes, in the build's shape. */
export const authTypes = (ctx: Pick<BuildContext, 'shape'>) => usersPermissionsTypes(ctx.shape === 'flat');

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
