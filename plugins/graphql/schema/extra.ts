/**
 * Types of Strapi 4's custom operations (users-permissions' auth and role payloads, upload's file
 * info), added to the schema by the extensions that define those operations.
 */
import { inputObjectType, objectType } from 'nexus';

const okPayload = (name: string) =>
  objectType({
    name,
    definition(t) {
      t.nonNull.boolean('ok');
    },
  });

/** The auth operations' and the roles' writes' types; Strapi 5's (`flat`) `UsersPermissionsMe` has `documentId`. */
export function usersPermissionsTypes(flat = false) {
  return [
    objectType({
      name: 'UsersPermissionsMe',
      definition(t) {
        t.nonNull.id('id');
        if (flat) t.nonNull.id('documentId');
        t.nonNull.string('username');
        t.string('email');
        t.boolean('confirmed');
        t.boolean('blocked');
        t.field('role', { type: 'UsersPermissionsMeRole' });
      },
    }),
    objectType({
      name: 'UsersPermissionsMeRole',
      definition(t) {
        t.nonNull.id('id');
        t.nonNull.string('name');
        t.string('description');
        t.string('type');
      },
    }),
    inputObjectType({
      name: 'UsersPermissionsRegisterInput',
      definition(t) {
        t.nonNull.string('username');
        t.nonNull.string('email');
        t.nonNull.string('password');
      },
    }),
    inputObjectType({
      name: 'UsersPermissionsLoginInput',
      definition(t) {
        t.nonNull.string('identifier');
        t.nonNull.string('password');
        t.nonNull.string('provider', { default: 'local' });
      },
    }),
    okPayload('UsersPermissionsPasswordPayload'),
    objectType({
      name: 'UsersPermissionsLoginPayload',
      definition(t) {
        t.string('jwt');
        t.nonNull.field('user', { type: 'UsersPermissionsMe' });
      },
    }),
    okPayload('UsersPermissionsCreateRolePayload'),
    okPayload('UsersPermissionsUpdateRolePayload'),
    okPayload('UsersPermissionsDeleteRolePayload'),
  ];
}

export const fileInfoInput = () =>
  inputObjectType({
    name: 'FileInfoInput',
    definition(t) {
      t.string('name');
      t.string('alternativeText');
      t.string('caption');
    },
  });
