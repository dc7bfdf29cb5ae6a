/**
 * users-permissions' and upload's own operations in the flat shape are Strapi 5.54's, as its SDL
 * of the blog prints them (test/fixtures/graphql/strapi5-blog.graphql); the entity shape keeps
 * Strapi 4's (graphql-schema.test.ts). The flat schema is built here directly: the endpoint does
 * not serve it yet (its requests' cases wait in ../helpers/flat-plugin-cases.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildSchema as fromSdl,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isObjectType,
  lexicographicSortSchema,
  printType,
} from 'graphql';
import { makeSchema, objectType, queryType } from 'nexus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlPlugin } from '../../plugins/graphql/index.ts';
import { rootResolver } from '../../plugins/graphql/operation.ts';
import { type BuiltSchema, buildSchema, type ExtensionSource } from '../../plugins/graphql/schema/build.ts';
import type { BuildContext, Shape } from '../../plugins/graphql/schema/context.ts';
import { uploadFileCrud } from '../../plugins/graphql/upload/crud.ts';
import { uploadOperations } from '../../plugins/graphql/upload/operations.ts';
import { usersPermissionsCrud } from '../../plugins/graphql/users-permissions/crud.ts';
import { usersPermissionsOperations } from '../../plugins/graphql/users-permissions/operations.ts';
import { uploadPlugin } from '../../plugins/upload/index.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { ROOT, startApp, type TestApp } from '../helpers/app.ts';

const STRAPI5 = fromSdl(readFileSync(path.join(ROOT, 'test/fixtures/graphql/strapi5-blog.graphql'), 'utf8'));

/** The types users-permissions and upload define themselves (the rest is the shadow CRUD's). */
const OWN_TYPES = [
  'FileInfoInput',
  'UsersPermissionsCreateRolePayload',
  'UsersPermissionsDeleteRolePayload',
  'UsersPermissionsLoginInput',
  'UsersPermissionsLoginPayload',
  'UsersPermissionsMe',
  'UsersPermissionsMeRole',
  'UsersPermissionsPasswordPayload',
  'UsersPermissionsRegisterInput',
  'UsersPermissionsUpdateRolePayload',
];
const OWN_MUTATIONS = [
  'changePassword',
  'createUsersPermissionsRole',
  'createUsersPermissionsUser',
  'deleteUploadFile',
  'deleteUsersPermissionsRole',
  'deleteUsersPermissionsUser',
  'emailConfirmation',
  'forgotPassword',
  'login',
  'register',
  'resetPassword',
  'updateUploadFile',
  'updateUsersPermissionsRole',
  'updateUsersPermissionsUser',
];
/** Strapi 4's, which Strapi 5 dropped */
const V4_ONLY = ['upload', 'multipleUpload', 'updateFileInfo', 'removeFile', 'createUploadFile'];

const printed = (schema: GraphQLSchema, name: string): string => {
  const type = lexicographicSortSchema(schema).getType(name);
  return type ? printType(type as GraphQLNamedType) : `no type ${name}`;
};

/** A field as the SDL shows it: description, arguments (sorted, with defaults) and type. */
function signature(field: GraphQLField<unknown, unknown> | undefined): string {
  if (!field) return 'absent';
  const args = [...field.args]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(
      (a) =>
        `${a.name}: ${String(a.type)}${a.defaultValue === undefined ? '' : ` = ${JSON.stringify(a.defaultValue)}`}`,
    );
  return `${field.description ?? ''}|${field.name}(${args.join(', ')}): ${String(field.type)}`;
}

const fieldOf = (schema: GraphQLSchema, type: 'Query' | 'Mutation', name: string) => {
  const root = type === 'Query' ? schema.getQueryType() : schema.getMutationType();
  return root?.getFields()[name];
};

let t: TestApp;

/** The plugins' extensions as index.ts assembles them. */
function extensions(): ExtensionSource[] {
  const users = () => t.app.plugin(usersPermissionsPlugin);
  const upload = () => t.app.plugin(uploadPlugin).service;
  const crud = {
    users: () => users().userHandlers,
    roles: () => users().roleHandlers,
    auth: () => users().authHandlers,
  };
  return [
    usersPermissionsOperations(t.app, crud.auth),
    usersPermissionsCrud(t.app, crud),
    uploadOperations(upload),
    uploadFileCrud(upload),
  ];
}

const build = (shape: Shape): BuiltSchema =>
  buildSchema(t.app.registry, rootResolver(t.app), { shape, extensions: extensions() });

beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

describe("the plugins' operations in the flat shape", () => {
  it("define Strapi 5's own types, printed as its SDL prints them", () => {
    const { schema } = build('flat');
    for (const name of OWN_TYPES) expect(printed(schema, name), name).toBe(printed(STRAPI5, name));
  });

  it("define Strapi 5's Mutation fields and `me`, with its arguments, types and descriptions", () => {
    const { schema } = build('flat');
    for (const name of OWN_MUTATIONS)
      expect(signature(fieldOf(schema, 'Mutation', name)), name).toBe(signature(fieldOf(STRAPI5, 'Mutation', name)));
    expect(signature(fieldOf(schema, 'Query', 'me'))).toBe(signature(fieldOf(STRAPI5, 'Query', 'me')));
    // what changed from Strapi 4, spelled out
    expect(signature(fieldOf(schema, 'Mutation', 'updateUploadFile'))).toBe(
      '|updateUploadFile(id: ID!, info: FileInfoInput): UploadFile!',
    );
    expect(signature(fieldOf(schema, 'Mutation', 'deleteUploadFile'))).toBe('|deleteUploadFile(id: ID!): UploadFile');
    expect(printed(schema, 'UsersPermissionsMe')).toContain('documentId: ID!');
  });

  it("leave out Strapi 4's upload operations, which Strapi 5 has not", () => {
    const { schema } = build('flat');
    for (const name of V4_ONLY) {
      expect(fieldOf(STRAPI5, 'Mutation', name), name).toBeUndefined();
      expect(fieldOf(schema, 'Mutation', name), name).toBeUndefined();
    }
  });

  it('answer the users’ writes with `{ data: UsersPermissionsUser }`, a response the planner knows', () => {
    const ctx = {
      shape: 'flat',
      roles: new Map(),
      names: new Map([['plugin::users-permissions.user', 'UsersPermissionsUser']]),
    } as unknown as BuildContext;
    const handlers = { users: () => ({}), roles: () => ({}), auth: () => ({}) };
    const ext = usersPermissionsCrud(t.app, handlers)(ctx);
    expect(ctx.roles.get('UsersPermissionsUserEntityResponse')).toEqual({
      kind: 'entityResponse',
      uid: 'plugin::users-permissions.user',
    });
    // with a stand-in document type: the response is the SDL's
    const schema = makeSchema({
      types: [
        ...ext.types.filter((type) => (type as { name?: string }).name === 'UsersPermissionsUserEntityResponse'),
        objectType({ name: 'UsersPermissionsUser', definition: (d) => d.nonNull.id('documentId') }),
        queryType({ definition: (d) => d.field('user', { type: 'UsersPermissionsUserEntityResponse' }) }),
      ],
      outputs: false,
      shouldGenerateArtifacts: false,
    });
    expect(printed(schema, 'UsersPermissionsUserEntityResponse')).toBe(
      printed(STRAPI5, 'UsersPermissionsUserEntityResponse'),
    );
    // a build that generated the response already: not defined twice
    const again = usersPermissionsCrud(t.app, handlers)(ctx);
    expect(again.types.some((type) => (type as { name?: string }).name === 'UsersPermissionsUserEntityResponse')).toBe(
      false,
    );
  });
});

describe("the plugins' operations in the entity shape", () => {
  it('are those the served schema has (Strapi 4’s)', () => {
    const { schema } = build('entity');
    const served = t.app.plugin(graphqlPlugin).schema();
    for (const name of [...OWN_MUTATIONS, ...V4_ONLY])
      expect(signature(fieldOf(schema, 'Mutation', name)), name).toBe(signature(fieldOf(served, 'Mutation', name)));
    for (const name of OWN_TYPES) expect(printed(schema, name), name).toBe(printed(served, name));
    expect(isObjectType(schema.getType('UsersPermissionsUserEntity'))).toBe(true);
  });
});
