/**
 * Output types, Strapi 5's flat shape: `X { documentId …attributes }` (relations typed as their
 * target, to-many ones also as `x_connection`), `XEntityResponseCollection { nodes pageInfo }`,
 * `XRelationResponseCollection { nodes }`, components; with `v4CompatibilityMode`, Strapi 5's
 * deprecated `id`, `attributes`, `data` and `meta`. No resolvers: the planner reads whole root fields.
 */
import { list, nonNull, objectType } from 'nexus';
import { type ContentType, isLocalized } from '../../../core/index.ts';
import * as n from '../naming.ts';
import { type BuildContext, hasField, ownerName } from './context.ts';
import { attributeFields, type Block, componentOutputs, type Link, listArgs, ownTypes } from './outputs.ts';

/** To-many: `tags(filters, pagination, sort): [Tag]!` and `tags_connection(…)`; to-one: `author: Author`. */
const flatLink: Link = (t, name, target, many, args) => {
  if (!many) {
    t.field(name, { type: target });
    return;
  }
  t.field(`${name}_connection`, { type: n.relationCollection(target), args });
  t.field(name, { type: nonNull(list(target)), args });
};

/** Strapi 5's `v4CompatibilityMode`: the object itself under `attributes` and `data` (deprecated). */
function v4Fields(ctx: BuildContext, t: Block, name: string): void {
  if (!ctx.v4Compat) return;
  const deprecation = 'Use root level fields instead';
  t.nonNull.field('attributes', { type: name, deprecation });
  t.nonNull.field('data', { type: name, deprecation });
}

/** A content-type's types: X, its root and relation collections, enums and unions. */
export function contentTypeOutputsFlat(ctx: BuildContext, ct: ContentType) {
  const name = ownerName(ctx, ct.uid);
  const uid = ct.uid;
  ctx.roles.set(name, { kind: 'document', uid });
  ctx.roles.set(n.entityCollection(name), { kind: 'connection', uid });
  ctx.roles.set(n.relationCollection(name), { kind: 'relationConnection', uid });
  const has = (field: string): boolean => hasField(ctx, uid, field, 'output');
  return [
    ...ownTypes(ctx, name, ct.attributes),
    objectType({
      name,
      definition(t) {
        // the row's id, as Strapi 5's compatibility mode shows it
        if (ctx.v4Compat && has('id')) t.nonNull.id('id', { deprecation: 'Use `documentId` instead' });
        if (has('documentId')) t.nonNull.id('documentId');
        v4Fields(ctx, t, name);
        attributeFields(ctx, t, uid, name, ct.attributes, flatLink);
        if (has('createdAt')) t.field('createdAt', { type: 'DateTime' });
        if (has('updatedAt')) t.field('updatedAt', { type: 'DateTime' });
        // every Strapi 5 document has publishedAt (set when published, always without draft & publish)
        if (has('publishedAt')) t.field('publishedAt', { type: 'DateTime' });
        if (isLocalized(ct)) {
          if (has('localizations')) flatLink(t, 'localizations', name, true, listArgs(n.filtersName(name), false));
          if (has('locale')) t.string('locale');
        }
      },
    }),
    objectType({
      name: n.entityCollection(name),
      definition(t) {
        t.nonNull.list.nonNull.field('nodes', { type: name });
        t.nonNull.field('pageInfo', { type: 'Pagination' });
        if (ctx.v4Compat) {
          t.nonNull.list.nonNull.field('data', { type: name, deprecation: 'Use `nodes` field instead' });
          t.nonNull.field('meta', { type: 'ResponseCollectionMeta', deprecation: 'Use the `pageInfo` field instead' });
        }
      },
    }),
    objectType({
      name: n.relationCollection(name),
      definition(t) {
        t.nonNull.list.nonNull.field('nodes', { type: name });
        if (ctx.v4Compat) {
          t.nonNull.list.nonNull.field('data', { type: name, deprecation: 'Use `nodes` field instead' });
        }
      },
    }),
  ];
}

/** A component's type (`id: ID!`, then its attributes, relations flat), enums and unions. */
export const componentOutputsFlat = (ctx: BuildContext, uid: string) =>
  componentOutputs(ctx, uid, flatLink, (t, name) => v4Fields(ctx, t, name));
