/**
 * Output types, Strapi 4's entity shape: `X` (a document's attributes), `XEntity { id attributes }`,
 * `XEntityResponse`, `XEntityResponseCollection`, `XRelationResponseCollection`, components,
 * dynamic-zone unions and enumerations. No resolvers: the planner reads whole root fields.
 */
import { arg, enumType, list, objectType, unionType } from 'nexus';
import type { ArgsRecord, ObjectDefinitionBlock } from 'nexus/dist/core.js';
import {
  type Attribute,
  type Attributes,
  type ContentType,
  FILE_UID,
  isLocalized,
  isScalar,
  isToMany,
} from '../../../core/index.ts';
import * as n from '../naming.ts';
import { scalarTypeOf } from './attributes.ts';
import {
  type BuildContext,
  dzTypeOf,
  enumTypeOf,
  hasComponent,
  hasDraftAndPublish,
  hasField,
  ownerName,
  targetName,
} from './context.ts';

export type Block = ObjectDefinitionBlock<string>;
/** a block adding one field, possibly already non-null (`t.nonNull`) */
export type FieldBlock = Pick<Block, 'field'>;

/** A list field's arguments: Strapi's `filters`, `pagination = {}`, `sort = []` (and `publicationState`). */
export function listArgs(filters: string | undefined, draftAndPublish: boolean): ArgsRecord {
  return {
    ...(filters ? { filters: arg({ type: filters }) } : {}),
    pagination: arg({ type: 'PaginationArg', default: {} }),
    sort: arg({ type: list('String'), default: [] }),
    ...(draftAndPublish ? { publicationState: arg({ type: 'PublicationState', default: 'LIVE' }) } : {}),
  };
}

export const shown = (attr: Attribute): boolean => !(attr.private === true || attr.type === 'password');

/**
 * How a shape types relations and media: `link(t, name, target, many, args)` adds the field of a
 * relation or media attribute to `target` (its type name); `many` ones get list arguments.
 */
export type Link = (t: FieldBlock, name: string, target: string, many: boolean, args: ArgsRecord) => void;

/** Strapi 4's: `XEntityResponse`, `XRelationResponseCollection(filters, pagination, sort)`. */
const entityLink: Link = (t, name, target, many, args) => {
  if (many) t.field(name, { type: n.relationCollection(target), args });
  else t.field(name, { type: n.entityResponse(target) });
};

/** One attribute as an output field of `owner` (required ones non-null, as Strapi 4). */
function attributeField(ctx: BuildContext, t: Block, owner: string, name: string, attr: Attribute, link: Link): void {
  const b = attr.required === true ? t.nonNull : t;
  if (isScalar(attr)) {
    b.field(name, { type: attr.type === 'enumeration' ? enumTypeOf(owner, name, attr) : scalarTypeOf(attr.type) });
    return;
  }
  if (attr.type === 'relation') {
    const target = targetName(ctx, attr);
    if (!target) return;
    const many = isToMany(attr);
    const dp = many && ctx.shape === 'entity' && hasDraftAndPublish(ctx.registry.contentType(attr.target));
    link(b, name, target, many, many ? listArgs(n.filtersName(target), dp) : {});
    return;
  }
  if (attr.type === 'media') {
    const file = ctx.names.get(FILE_UID);
    if (!file) return;
    const many = attr.multiple === true;
    link(b, name, file, many, many ? listArgs(n.filtersName(file), false) : {});
    return;
  }
  if (attr.type === 'component') {
    if (!hasComponent(ctx, attr.component)) return;
    const type = n.componentName(attr.component);
    if (attr.repeatable) b.field(name, { type: list(type), args: listArgs(n.filtersName(type), false) });
    else b.field(name, { type });
    return;
  }
  b.field(name, { type: list(dzTypeOf(owner, name)) });
}

/** The attributes of `uid` (a content-type or component) in its output type: not private, not disabled. */
export function attributeFields(
  ctx: BuildContext,
  t: Block,
  uid: string,
  owner: string,
  attrs: Attributes,
  link: Link = entityLink,
): void {
  for (const [name, attr] of Object.entries(attrs)) {
    if (shown(attr) && hasField(ctx, uid, name, 'output')) attributeField(ctx, t, owner, name, attr, link);
  }
}

/** Enumerations and dynamic-zone unions of one content-type or component (disabled components left out). */
export function ownTypes(ctx: BuildContext, owner: string, attrs: Attributes) {
  const out = [];
  for (const [name, attr] of Object.entries(attrs)) {
    if (attr.type === 'enumeration' && attr.enum) {
      out.push(enumType({ name: enumTypeOf(owner, name, attr), members: attr.enum }));
    } else if (attr.type === 'dynamiczone') {
      const shownComponents = attr.components.filter((c) => hasComponent(ctx, c));
      const members = [...shownComponents.map(n.componentName), 'Error'];
      // items carry their `__typename` (built in SQL), which graphql's default type resolver reads
      out.push(unionType({ name: dzTypeOf(owner, name), definition: (t) => t.members(...members) }));
    }
  }
  return out;
}

/** A content-type's types: X, its entity, response and collections, enums and unions. */
export function contentTypeOutputs(ctx: BuildContext, ct: ContentType) {
  const name = ownerName(ctx, ct.uid);
  const dp = hasDraftAndPublish(ct);
  const uid = ct.uid;
  ctx.roles.set(name, { kind: 'document', uid });
  ctx.roles.set(n.entity(name), { kind: 'entity', uid });
  ctx.roles.set(n.entityResponse(name), { kind: 'entityResponse', uid });
  ctx.roles.set(n.entityCollection(name), { kind: 'entityCollection', uid });
  ctx.roles.set(n.relationCollection(name), { kind: 'relationCollection', uid });
  // Strapi's timestamps, publishedAt and i18n's fields are attributes the shadow CRUD can disable
  const has = (field: string): boolean => hasField(ctx, uid, field, 'output');
  return [
    ...ownTypes(ctx, name, ct.attributes),
    objectType({
      name,
      definition(t) {
        attributeFields(ctx, t, uid, name, ct.attributes);
        if (has('createdAt')) t.field('createdAt', { type: 'DateTime' });
        if (has('updatedAt')) t.field('updatedAt', { type: 'DateTime' });
        if (dp && has('publishedAt')) t.field('publishedAt', { type: 'DateTime' });
        if (isLocalized(ct)) {
          if (has('localizations')) {
            t.field('localizations', { type: n.relationCollection(name), args: listArgs(n.filtersName(name), dp) });
          }
          if (has('locale')) t.string('locale');
        }
      },
    }),
    objectType({
      name: n.entity(name),
      definition(t) {
        t.id('id');
        t.field('attributes', { type: name });
      },
    }),
    objectType({
      name: n.entityResponse(name),
      definition(t) {
        t.field('data', { type: n.entity(name) });
      },
    }),
    objectType({
      name: n.entityCollection(name),
      definition(t) {
        t.nonNull.list.nonNull.field('data', { type: n.entity(name) });
        t.nonNull.field('meta', { type: 'ResponseCollectionMeta' });
      },
    }),
    objectType({
      name: n.relationCollection(name),
      definition(t) {
        t.nonNull.list.nonNull.field('data', { type: n.entity(name) });
      },
    }),
  ];
}

/**
 * A component's type (`id: ID!`, then its attributes), enums and unions; `link` types its
 * relations (the flat shape's are the targets themselves), `extra` adds fields after `id`.
 */
export function componentOutputs(
  ctx: BuildContext,
  uid: string,
  link: Link = entityLink,
  extra?: (t: Block, name: string) => void,
) {
  const name = n.componentName(uid);
  const attrs = ctx.registry.component(uid).attributes;
  ctx.roles.set(name, { kind: 'component', uid });
  return [
    ...ownTypes(ctx, name, attrs),
    objectType({
      name,
      definition(t) {
        if (hasField(ctx, uid, 'id', 'output')) t.nonNull.id('id');
        extra?.(t, name);
        attributeFields(ctx, t, uid, name, attrs, link);
      },
    }),
  ];
}
