/**
 * Types of Strapi 4's custom operations (users-permissions' auth, upload's file info). The
 * operations come with the rest of #13; their types are in the schema already, as Strapi's.
 */
import { inputObjectType, objectType } from 'nexus';

const okPayload = (name: string) =>
  objectType({
    name,
    definition(t) {
      t.nonNull.boolean('ok');
    },
  });

export function usersPermissionsTypes() {
  return [
    objectType({
      name: 'UsersPermissionsMe',
      definition(t) {
        t.nonNull.id('id');
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

/** Names of the types above that no field reaches yet: kept in the schema all the same. */
export const USERS_PERMISSIONS_TYPES = [
  'UsersPermissionsMe',
  'UsersPermissionsMeRole',
  'UsersPermissionsRegisterInput',
  'UsersPermissionsLoginInput',
  'UsersPermissionsPasswordPayload',
  'UsersPermissionsLoginPayload',
  'UsersPermissionsCreateRolePayload',
  'UsersPermissionsUpdateRolePayload',
  'UsersPermissionsDeleteRolePayload',
];

export const fileInfoInput = () =>
  inputObjectType({
    name: 'FileInfoInput',
    definition(t) {
      t.string('name');
      t.string('alternativeText');
      t.string('caption');
    },
  });
