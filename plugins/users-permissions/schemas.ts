import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { configurationError, type ContentType, isPlainObject } from '../../core/index.ts';

export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';
export const API_TOKEN_UID = 'admin::api-token';

/** Strapi's user schema (password, resetPasswordToken and confirmationToken are private). */
export const userContentType = (): ContentType => ({
  uid: USER_UID,
  kind: 'collectionType',
  collectionName: 'up_users',
  info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
  options: { draftAndPublish: false },
  pluginOptions: {},
  origin: 'users-permissions',
  source: '',
  attributes: {
    username: { type: 'string', minLength: 3, unique: true, required: true },
    email: { type: 'email', minLength: 6, required: true },
    provider: { type: 'string' },
    password: { type: 'password', minLength: 6, private: true },
    resetPasswordToken: { type: 'string', private: true },
    confirmationToken: { type: 'string', private: true },
    confirmed: { type: 'boolean', default: false },
    blocked: { type: 'boolean', default: false },
    role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'users' },
  },
});

/** A role; its granted actions are a list of action uids (the roles API shows Strapi's nested shape). */
export const roleContentType = (): ContentType => ({
  uid: ROLE_UID,
  kind: 'collectionType',
  collectionName: 'up_roles',
  info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
  options: { draftAndPublish: false },
  pluginOptions: {},
  origin: 'users-permissions',
  source: '',
  attributes: {
    name: { type: 'string', minLength: 3, required: true },
    description: { type: 'string' },
    type: { type: 'string', unique: true },
    // private: a populated role shows no grant list (Strapi's permissions are a relation, never populated
    // unless asked); the roles API reads and writes it as Strapi's nested tree
    permissions: { type: 'json', private: true },
    users: { type: 'relation', relation: 'oneToMany', target: USER_UID, mappedBy: 'role' },
  },
});

/** API tokens: only the HMAC of the key is stored (`accessKey`, private). */
export const apiTokenContentType = (): ContentType => ({
  uid: API_TOKEN_UID,
  kind: 'collectionType',
  collectionName: 'strapi_api_tokens',
  info: { singularName: 'api-token', pluralName: 'api-tokens', displayName: 'Api Token' },
  options: { draftAndPublish: false },
  pluginOptions: {},
  origin: 'admin',
  source: '',
  attributes: {
    name: { type: 'string', required: true, unique: true },
    description: { type: 'string' },
    type: { type: 'enumeration', enum: ['read-only', 'full-access', 'custom'], required: true },
    accessKey: { type: 'string', required: true, private: true, unique: true },
    lastUsedAt: { type: 'datetime' },
    expiresAt: { type: 'datetime' },
    lifespan: { type: 'biginteger' },
    permissions: { type: 'json' },
  },
});

/**
 * The user content-type, extended by the app as in Strapi:
 * `src/extensions/users-permissions/content-types/user/schema.json` adds or overrides
 * attributes (and may set options); the built-in attributes it does not name stay.
 */
export async function loadUserContentType(appDir: string): Promise<ContentType> {
  const base = userContentType();
  const file = path.join(appDir, 'src/extensions/users-permissions/content-types/user/schema.json');
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch {
    return base;
  }
  let ext: unknown;
  try {
    ext = JSON.parse(raw);
  } catch (err) {
    throw configurationError(`${file}: invalid JSON (${(err as Error).message})`, { cause: err });
  }
  if (!isPlainObject(ext)) throw configurationError(`${file}: expected an object`);
  const attributes = isPlainObject(ext.attributes) ? ext.attributes : {};
  return {
    ...base,
    source: file,
    options: { ...base.options, ...(isPlainObject(ext.options) ? ext.options : {}), draftAndPublish: false },
    attributes: { ...base.attributes, ...(attributes as ContentType['attributes']) },
  };
}
