/**
 * The Mutation type, assembled from separate modules: each contributes `MutationSpec`s (the
 * shadow CRUD's writes here; upload's and users-permissions' own operations elsewhere), and
 * `buildSchema` adds them all, so no module edits another's fields.
 */
import type { GraphQLFieldResolver } from 'graphql';
import { arg, nonNull, objectType } from 'nexus';
import type { AllNexusOutputTypeDefs, ArgsRecord, NexusMetaType } from 'nexus/dist/core.js';
import { type ContentType, isLocalized } from '../../../core/index.ts';
import * as n from '../naming.ts';
import { type BuildContext, localeArg, ownerName, type Shape } from './context.ts';

type OutputType = string | NexusMetaType | AllNexusOutputTypeDefs;

/** What a shadow CRUD mutation writes; its resolver comes from `mutations/resolve.ts`. */
export interface MutationRoot {
  uid: string;
  kind: 'create' | 'update' | 'delete' | 'createLocalization';
  /** the permission action the caller needs (REST's for the same write) */
  action: string;
  /**
   * `flat` (Strapi 5's shape, mutations-flat.ts): the document is addressed by `documentId`
   * (not `id`), create and update take `status` (`DRAFT`/`PUBLISHED`, default `PUBLISHED`) and
   * answer the document itself, delete answers `DeleteMutationResponse { documentId }`; absent:
   * Strapi 4's entity shape.
   */
  shape?: Shape;
}

/** One Mutation field: a shadow CRUD write (`root`) or an operation with a resolver of its own. */
export interface MutationSpec {
  name: string;
  /** the output type, as Nexus takes it (`nonNull('X')` and lists included) */
  type: OutputType;
  args: ArgsRecord;
  description?: string;
  root?: MutationRoot;
  resolve?: GraphQLFieldResolver<unknown, unknown>;
}

/** A module adding Mutation fields, given what the schema is built from. */
export type MutationSource = (ctx: BuildContext) => MutationSpec[];

/** Types whose shadow CRUD writes Strapi disables (their plugins replace or forbid them). */
export const NO_WRITES: ReadonlySet<string> = new Set([
  'plugin::i18n.locale',
  'plugin::users-permissions.user',
  'plugin::users-permissions.role',
  'plugin::users-permissions.permission',
]);

/**
 * `createX/updateX/deleteX` (single types: `updateX/deleteX`) and, on localized types,
 * `createXLocalization`, as Strapi 4 names and types them. Plugin types are left to their
 * plugins (users' and roles' writes: ../users-permissions/crud.ts; files': ../upload/crud.ts).
 * A write is left out when the app's `register` disabled the type's mutations or that action;
 * `createXLocalization` is i18n's own, there with the type (Strapi's i18n adds it for every
 * localized type in the schema).
 */
export function contentTypeMutations(ctx: BuildContext, types: ContentType[]): MutationSpec[] {
  const out: MutationSpec[] = [];
  for (const ct of types) {
    if (ct.origin !== 'api' || NO_WRITES.has(ct.uid)) continue;
    const name = ownerName(ctx, ct.uid);
    const type = n.entityResponse(name);
    const data = { data: nonNull(arg({ type: n.inputName(name) })) };
    const root = (kind: MutationRoot['kind'], action = kind as string): MutationRoot => ({
      uid: ct.uid,
      kind,
      action: `${ct.uid}.${action}`,
    });
    const locale = localeArg(ct);
    const shadow = ctx.shadow(ct.uid);
    const writes = (action: string): boolean => shadow.areMutationsEnabled() && shadow.isActionEnabled(action);
    if (ct.kind !== 'singleType' && writes('create')) {
      out.push({ name: `create${name}`, type, args: { ...data, ...locale }, root: root('create') });
    }
    const id: ArgsRecord = ct.kind === 'singleType' ? {} : { id: nonNull(arg({ type: 'ID' })) };
    if (writes('update')) {
      out.push({ name: `update${name}`, type, args: { ...id, ...data, ...locale }, root: root('update') });
    }
    if (writes('delete')) out.push({ name: `delete${name}`, type, args: { ...id, ...locale }, root: root('delete') });
    if (isLocalized(ct) && ct.kind !== 'singleType') {
      // REST creates a localization with an update in that locale: the same permission here
      out.push({
        name: `create${name}Localization`,
        type,
        args: {
          id: arg({ type: 'ID' }),
          data: arg({ type: n.inputName(name) }),
          locale: arg({ type: 'I18NLocaleCode' }),
        },
        root: root('createLocalization', 'update'),
      });
    }
  }
  return out;
}

/** The Mutation type of `specs`, in their order; null without any (a schema needs none). */
export function mutationType(specs: MutationSpec[]) {
  if (specs.length === 0) return null;
  return objectType({
    name: 'Mutation',
    definition(t) {
      for (const spec of specs) {
        t.field(spec.name, { type: spec.type, args: spec.args, description: spec.description });
      }
    },
  });
}
