/**
 * Input types: `XFiltersInput` (Strapi 4's: private attributes included, refused when used;
 * media and dynamic zones left out), `XInput` for the mutations to come, and components' both.
 */
import { inputObjectType, list, nonNull, scalarType } from 'nexus';
import type { InputDefinitionBlock } from 'nexus/dist/core.js';
import { type Attributes, type ContentType, FILE_UID, isLocalized, isScalar, isToMany } from '../../../core/index.ts';
import * as n from '../naming.ts';
import { scalarFilterOf, scalarTypeOf } from './attributes.ts';
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

export type Block = InputDefinitionBlock<string>;

/**
 * The filters of `uid`'s attributes (those the shadow CRUD keeps; relations to disabled types left
 * out). Strapi 5 (the flat shape) leaves private attributes out too; Strapi 4 lists them.
 */
export function attributeFilters(ctx: BuildContext, t: Block, uid: string, attrs: Attributes): void {
  for (const [name, attr] of Object.entries(attrs)) {
    if (!hasField(ctx, uid, name, 'filters')) continue;
    if (ctx.shape === 'flat' && (attr.private === true || attr.type === 'password')) continue;
    if (isScalar(attr)) {
      t.field(name, { type: scalarFilterOf(attr.type === 'enumeration' ? 'String' : scalarTypeOf(attr.type)) });
    } else if (attr.type === 'relation') {
      const target = targetName(ctx, attr);
      if (target) t.field(name, { type: n.filtersName(target) });
    } else if (attr.type === 'component' && hasComponent(ctx, attr.component)) {
      t.field(name, { type: n.filtersName(n.componentName(attr.component)) });
    }
  }
}

export function logical(t: Block, self: string): void {
  t.field('and', { type: list(self) });
  t.field('or', { type: list(self) });
  t.field('not', { type: self });
}

/** The input fields of `uid`'s attributes (those the shadow CRUD keeps; relations to disabled types left out). */
export function attributeInputs(ctx: BuildContext, t: Block, uid: string, owner: string, attrs: Attributes): void {
  const file = ctx.names.get(FILE_UID);
  for (const [name, attr] of Object.entries(attrs)) {
    if (!hasField(ctx, uid, name, 'input')) continue;
    if (isScalar(attr)) {
      t.field(name, { type: attr.type === 'enumeration' ? enumTypeOf(owner, name, attr) : scalarTypeOf(attr.type) });
    } else if (attr.type === 'relation') {
      if (!targetName(ctx, attr)) continue;
      t.field(name, { type: isToMany(attr) ? list('ID') : 'ID' });
    } else if (attr.type === 'media') {
      if (file) t.field(name, { type: attr.multiple ? list('ID') : 'ID' });
    } else if (attr.type === 'component') {
      if (!hasComponent(ctx, attr.component)) continue;
      const type = n.inputName(n.componentName(attr.component));
      t.field(name, { type: attr.repeatable ? list(type) : type });
    } else {
      t.field(name, { type: list(nonNull(n.inputName(dzTypeOf(owner, name)))) });
    }
  }
}

/** A dynamic zone's input: a scalar of `{ __typename, ...fields }` objects (Strapi 4's). */
export function dynamicZoneInputs(owner: string, attrs: Attributes) {
  return Object.entries(attrs)
    .filter(([, attr]) => attr.type === 'dynamiczone')
    .map(([name]) =>
      scalarType({
        name: n.inputName(dzTypeOf(owner, name)),
        serialize: (value: unknown) => value,
        parseValue: (value: unknown) => value,
      }),
    );
}

/**
 * A content-type's `XFiltersInput` and `XInput`. The flat shape (Strapi 5) filters by `documentId`
 * rather than `id` and shows `publishedAt` on every type (without draft & publish a document is
 * always published); the entity shape only on draft & publish types.
 */
export function contentTypeInputs(ctx: BuildContext, ct: ContentType) {
  const name = ownerName(ctx, ct.uid);
  const filters = n.filtersName(name);
  const flat = ctx.shape === 'flat';
  const idField = flat ? 'documentId' : 'id';
  const published = flat || hasDraftAndPublish(ct);
  // the id, the timestamps, publishedAt and i18n's fields can be disabled as Strapi's attributes can
  const filtered = (field: string): boolean => hasField(ctx, ct.uid, field, 'filters');
  return [
    ...dynamicZoneInputs(name, ct.attributes),
    inputObjectType({
      name: filters,
      definition(t) {
        if (ct.kind === 'collectionType' && filtered(idField)) t.field(idField, { type: 'IDFilterInput' });
        attributeFilters(ctx, t, ct.uid, ct.attributes);
        if (filtered('createdAt')) t.field('createdAt', { type: 'DateTimeFilterInput' });
        if (filtered('updatedAt')) t.field('updatedAt', { type: 'DateTimeFilterInput' });
        if (published && filtered('publishedAt')) t.field('publishedAt', { type: 'DateTimeFilterInput' });
        if (isLocalized(ct)) {
          if (filtered('localizations')) t.field('localizations', { type: filters });
          if (filtered('locale')) t.field('locale', { type: 'StringFilterInput' });
        }
        logical(t, filters);
      },
    }),
    inputObjectType({
      name: n.inputName(name),
      definition(t) {
        attributeInputs(ctx, t, ct.uid, name, ct.attributes);
        if (published && hasField(ctx, ct.uid, 'publishedAt', 'input')) t.field('publishedAt', { type: 'DateTime' });
      },
    }),
  ];
}

export function componentInputs(ctx: BuildContext, uid: string) {
  const name = n.componentName(uid);
  const attrs = ctx.registry.component(uid).attributes;
  return [
    ...dynamicZoneInputs(name, attrs),
    inputObjectType({
      name: n.filtersName(name),
      definition(t) {
        attributeFilters(ctx, t, uid, attrs);
        logical(t, n.filtersName(name));
      },
    }),
    inputObjectType({
      name: n.inputName(name),
      definition(t) {
        if (hasField(ctx, uid, 'id', 'input')) t.id('id');
        attributeInputs(ctx, t, uid, name, attrs);
      },
    }),
  ];
}
