/**
 * What the generated schema means, for the planner: which content-type or component each
 * generated type stands for and in which role, and what each Query field reads. The schema is
 * built from the registry once, at bootstrap; the planner walks selection sets with this.
 */
import { type ContentType, FILE_UID, type Registry } from '../../../core/index.ts';
import { typeName } from '../naming.ts';

export type TypeRole =
  /** `Article`: a document's attributes */
  | { kind: 'document'; uid: string }
  /** `ComponentSharedSeo` */
  | { kind: 'component'; uid: string }
  /** `ArticleEntity { id attributes }` */
  | { kind: 'entity'; uid: string }
  /** `ArticleEntityResponse { data }` */
  | { kind: 'entityResponse'; uid: string }
  /** `ArticleRelationResponseCollection { data }` */
  | { kind: 'relationCollection'; uid: string }
  /** `ArticleEntityResponseCollection { data meta }` */
  | { kind: 'entityCollection'; uid: string }
  | { kind: 'meta' }
  | { kind: 'pagination' }
  /** flat shape: `ArticleEntityResponseCollection { nodes pageInfo }` (a root `articles_connection`) */
  | { kind: 'connection'; uid: string }
  /** flat shape: `ArticleRelationResponseCollection { nodes }` (a nested `tags_connection`) */
  | { kind: 'relationConnection'; uid: string };

/** A Query field of the shadow CRUD. */
export interface RootField {
  uid: string;
  /** `connection`: the flat shape's `articles_connection` (a `find` answering `{ nodes pageInfo }`) */
  kind: 'find' | 'findOne' | 'single' | 'connection';
  /** the permission action the caller needs */
  action: string;
}

export interface SchemaModel {
  /** Strapi 4's entity shape or Strapi 5's flat one (`graphql.config.shape`) */
  shape: 'entity' | 'flat';
  /** flat shape: Strapi 5's `v4CompatibilityMode` fields are in the schema */
  v4Compat?: boolean;
  roles: ReadonlyMap<string, TypeRole>;
  roots: ReadonlyMap<string, RootField>;
  /** the GraphQL type name of a content-type's documents */
  typeOf(uid: string): string;
  /**
   * Fields (`Type.field`) with a resolver of their own: a query selecting one is answered through
   * `execute`, which calls it with the object read for its parent. Custom resolvers, middlewares
   * and policies are registered here.
   */
  resolved: Set<string>;
  /**
   * Fields whose resolver is the app's own: it gets, as its parent, the object with every
   * (non-private) attribute of the document or component, as Strapi's resolvers do, not the
   * read's aliased one.
   */
  custom: ReadonlySet<string>;
}

/** Content-types the schema shows: Strapi leaves the admin's out. */
export const isExposed = (ct: ContentType): boolean => ct.origin !== 'admin';

/**
 * What an entity's `id` is: the documentId for the app's types (documents are addressed by it, as
 * in REST); the row id for plugin types, whose REST routes address them by id (files, users, roles).
 */
export const entityIdField = (ct: ContentType): 'documentId' | 'id' => (ct.origin === 'api' ? 'documentId' : 'id');

/** Read permissions of plugin types, as their REST routes name them; `<uid>.<action>` otherwise. */
const PLUGIN_ACTIONS: Record<string, { find: string; findOne: string }> = {
  [FILE_UID]: { find: 'plugin::upload.content-api.find', findOne: 'plugin::upload.content-api.findOne' },
  'plugin::i18n.locale': { find: 'plugin::i18n.locales.listLocales', findOne: 'plugin::i18n.locales.listLocales' },
  'plugin::users-permissions.user': {
    find: 'plugin::users-permissions.user.find',
    findOne: 'plugin::users-permissions.user.findOne',
  },
  'plugin::users-permissions.role': {
    find: 'plugin::users-permissions.role.find',
    findOne: 'plugin::users-permissions.role.findOne',
  },
};

/** The action reading `uid` needs: `find` for lists (and a single type, as REST's GET), `findOne` for one. */
export function readAction(uid: string, action: 'find' | 'findOne'): string {
  return PLUGIN_ACTIONS[uid]?.[action] ?? `${uid}.${action}`;
}

/**
 * The type names of every exposed content-type that `enabled` keeps (the shadow CRUD's
 * `disable()`), checked for clashes (two uids, one name).
 */
export function typeNames(registry: Registry, enabled: (uid: string) => boolean = () => true): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Map<string, string>();
  for (const ct of registry.contentTypes()) {
    if (!isExposed(ct) || !enabled(ct.uid)) continue;
    const name = typeName(ct);
    const other = taken.get(name);
    if (other) throw new Error(`GraphQL: ${ct.uid} and ${other} would both be named ${name}`);
    taken.set(name, ct.uid);
    out.set(ct.uid, name);
  }
  return out;
}
