/**
 * A selection set planned into the core's layout: each response key of an entity, a document's
 * attributes or a component instance becomes a field, a constant (`__typename`), an object read
 * from the same row (`attributes`, a relation's `{ data }` wrapper) or a populated attribute with
 * its own filters, sort, window and status. The whole tree is one SQL statement (core/query).
 */
import { type FieldNode, getArgumentValues, getNamedType, GraphQLError } from 'graphql';
import {
  assertQueryAccess,
  type Attribute,
  FILE_UID,
  findActionOf,
  isScalar,
  isToMany,
  type Layout,
  type LayoutEntry,
  LOCALIZATIONS,
  MEDIA_FIND_ACTION,
  type PopulateNode,
} from '../../../core/index.ts';
import { amountLimitError } from './amount.ts';
import { componentName, entity } from '../naming.ts';
import { entityIdField } from '../schema/model.ts';
import { filtersOf, sortOf, statusOf, windowOf } from './args.ts';
import type { Collected } from './collect.ts';
import { fieldsOf, objectTypeOf, type PlanContext, selectsResolved } from './context.ts';

const SYSTEM = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale']);

const fieldName = (nodes: FieldNode[]): string => nodes[0].name.value;

/** Arguments of the field `nodes` select on `typeName` (merged fields have the same, by validation). */
function argsOf(pc: PlanContext, typeName: string, nodes: FieldNode[]): Record<string, unknown> {
  const def = objectTypeOf(pc, typeName).getFields()[fieldName(nodes)];
  return def ? getArgumentValues(def, nodes[0], pc.op.variables) : {};
}

/**
 * Adds up the limits of one parent's list fields by field name: two aliases of `tags` with 60
 * items each ask 120 tags of each document, past an `amountLimit` of 100.
 */
function amountCounter(pc: PlanContext): (name: string, limit: number | null) => void {
  const sums = new Map<string, number>();
  return (name, limit) => {
    const sum = (sums.get(name) ?? 0) + (limit ?? Number.POSITIVE_INFINITY);
    sums.set(name, sum);
    if (sum > pc.limits.amountLimit) throw amountLimitError(name, pc.limits.amountLimit);
  };
}

/** A list's filters, sort, window and status from its arguments, checked against the caller's rights. */
function listOptions(
  pc: PlanContext,
  uid: string,
  args: Record<string, unknown>,
  count: ReturnType<typeof amountCounter>,
  name: string,
) {
  const filters = filtersOf(pc.registry, uid, args.filters);
  const sort = sortOf(pc.registry, uid, args.sort);
  assertQueryAccess({ filters, sort }, (action) => pc.auth.allows(action));
  const window = windowOf(args.pagination, pc.limits);
  count(name, window.limit);
  const options: PopulateNode = { pagination: window };
  if (filters) options.filters = filters;
  if (sort) options.sort = sort;
  if (args.publicationState !== undefined || args.status !== undefined) {
    options.status = statusOf(args);
    if (options.status === 'draft') pc.readsDrafts = true;
  }
  return options;
}

/** `XEntity { id attributes }` of a content-type. */
export function entityLayout(pc: PlanContext, uid: string, nodes: FieldNode[]): Layout {
  const ct = pc.registry.contentType(uid);
  const name = pc.model.typeOf(uid);
  const out: Layout = [];
  for (const [key, sub] of fieldsOf(pc, entity(name), nodes)) {
    const field = fieldName(sub);
    if (field === '__typename') out.push({ kind: 'value', key, value: entity(name) });
    else if (field === 'id') out.push({ kind: 'field', key, field: entityIdField(ct), text: true });
    else if (field === 'attributes') out.push({ kind: 'object', key, layout: documentLayout(pc, uid, sub) });
  }
  return out;
}

/** The fields of a wrapper that hold its items: Strapi 4's `{ data }`, Strapi 5's connection `{ nodes }`. */
const ITEMS: ReadonlySet<string> = new Set(['data', 'nodes']);

/**
 * A relation's (or media's, or `localizations`') wrapper: Strapi 4's `{ data }`, or Strapi 5's
 * `tags_connection { nodes }` (and v4CompatibilityMode's `data` beside it). Each items key is a
 * populate of the attribute with the wrapper field's arguments.
 */
function wrapper(
  pc: PlanContext,
  wrapperType: string,
  nodes: FieldNode[],
  populate: (data: FieldNode[]) => PopulateNode,
): Layout {
  const out: Layout = [];
  for (const [key, sub] of fieldsOf(pc, wrapperType, nodes)) {
    const field = fieldName(sub);
    if (field === '__typename') out.push({ kind: 'value', key, value: wrapperType });
    else if (ITEMS.has(field)) out.push({ kind: 'populate', key, node: populate(sub) });
  }
  return out;
}

/** The named type of the field `nodes` select on `owner` (`ArticleRelationResponseCollection`, …). */
const fieldTypeName = (pc: PlanContext, owner: string, nodes: FieldNode[]): string =>
  getNamedType(objectTypeOf(pc, owner).getFields()[fieldName(nodes)].type).name;

/** What a relation, a media field or `localizations` links to, and the permission reading it needs. */
interface Link {
  target: string;
  action: string;
  many: boolean;
}

/** The link of `uid`'s field `name`, if it is one (i18n's `localizations`, no attribute: the other locales). */
function linkOf(pc: PlanContext, uid: string, name: string): Link | undefined {
  const attrs = pc.registry.attributesOf(uid);
  if (!Object.hasOwn(attrs, name)) {
    const others = name === LOCALIZATIONS && pc.registry.hasContentType(uid);
    return others ? { target: uid, action: findActionOf(uid), many: true } : undefined;
  }
  const attr = attrs[name];
  if (attr.type === 'relation') return { target: attr.target, action: findActionOf(attr.target), many: isToMany(attr) };
  if (attr.type === 'media') return { target: FILE_UID, action: MEDIA_FIND_ACTION, many: attr.multiple === true };
  return undefined;
}

/**
 * A link selected under `key` on `owner`: the target's documents populated from `attribute`, in
 * the shape's wrapping (Strapi 4's `{ data }` of entities; Strapi 5's documents themselves, or
 * with `connection` its `{ nodes }`). One the caller may not read is null and FORBIDDEN; a flat
 * list, non-null, is empty instead.
 */
function linkEntry(
  pc: PlanContext,
  owner: string,
  key: string,
  nodes: FieldNode[],
  attribute: string,
  link: Link,
  count: ReturnType<typeof amountCounter>,
  connection = false,
): LayoutEntry {
  const flat = pc.model.shape === 'flat';
  if (!pc.auth.allows(link.action)) return forbiddenField(pc, key, link.many && flat && !connection ? [] : null);
  const name = fieldName(nodes);
  const options = link.many ? listOptions(pc, link.target, argsOf(pc, owner, nodes), count, name) : {};
  const node = (sub: FieldNode[]): PopulateNode => ({
    ...options,
    attribute,
    layout: itemLayout(pc, link.target, sub),
  });
  if (flat && !connection) return { kind: 'populate', key, node: node(nodes) };
  return { kind: 'object', key, layout: wrapper(pc, fieldTypeName(pc, owner, nodes), nodes, node) };
}

/** A field the caller may not read: null, and Strapi's FORBIDDEN error. */
function forbiddenField(pc: PlanContext, key: string, value: [] | null = null): LayoutEntry {
  pc.forbidden++;
  return { kind: 'value', key, value };
}

/** One response key of a document's attributes or a component instance (`owner` is its type name, `uid` its uid). */
function attributeEntry(
  pc: PlanContext,
  owner: string,
  uid: string,
  key: string,
  nodes: FieldNode[],
  attr: Attribute,
  count: ReturnType<typeof amountCounter>,
): LayoutEntry {
  const name = fieldName(nodes);
  if (isScalar(attr)) return { kind: 'field', key, field: name };
  const link = linkOf(pc, uid, name);
  if (link) return linkEntry(pc, owner, key, nodes, name, link, count);
  if (attr.type === 'component') {
    const options = attr.repeatable ? listOptions(pc, attr.component, argsOf(pc, owner, nodes), count, name) : {};
    return {
      kind: 'populate',
      key,
      node: { ...options, attribute: name, layout: componentLayout(pc, attr.component, nodes) },
    };
  }
  if (attr.type !== 'dynamiczone') throw new GraphQLError(`Cannot plan ${name}`);
  const on: Record<string, PopulateNode> = {};
  for (const uid of attr.components) {
    // a component the shadow CRUD disabled is no member of the union: its items are left out
    if (!pc.model.roles.has(componentName(uid))) continue;
    const layout = componentLayout(pc, uid, nodes);
    // the union's type resolver reads `__typename` when the answer goes through execute
    if (pc.forExecute) layout.unshift({ kind: 'value', key: '__typename', value: componentName(uid) });
    on[uid] = { layout };
  }
  return { kind: 'populate', key, node: { attribute: name, on } };
}

/** One item of a list or relation: an entity (`{ id attributes }`), or in the flat shape the document itself. */
export const itemLayout = (pc: PlanContext, uid: string, nodes: FieldNode[]): Layout =>
  pc.model.shape === 'flat' ? documentLayout(pc, uid, nodes) : entityLayout(pc, uid, nodes);

const CONNECTION = '_connection';

/** The flat shape's `tags_connection { nodes }` (`localizations_connection` too): `tags`' populate, wrapped. */
function connectionEntry(
  pc: PlanContext,
  uid: string,
  owner: string,
  key: string,
  nodes: FieldNode[],
  count: ReturnType<typeof amountCounter>,
): LayoutEntry | undefined {
  const base = fieldName(nodes).slice(0, -CONNECTION.length);
  const link = linkOf(pc, uid, base);
  return link?.many ? linkEntry(pc, owner, key, nodes, base, link, count, true) : undefined;
}

/** The fields selected on a document's type (`Article`: the entity shape's attributes, the flat shape's document). */
export function documentLayout(pc: PlanContext, uid: string, nodes: FieldNode[]): Layout {
  const ct = pc.registry.contentType(uid);
  const typeName = pc.model.typeOf(uid);
  const flat = pc.model.shape === 'flat';
  return membersLayout(pc, typeName, fieldsOf(pc, typeName, nodes), (key, sub, count) => {
    const name = fieldName(sub);
    if (SYSTEM.has(name)) return { kind: 'field', key, field: name };
    if (flat && name === 'documentId') return { kind: 'field', key, field: 'documentId' };
    if (flat && pc.model.v4Compat) {
      // Strapi 5's v4CompatibilityMode: the row id, and `attributes`/`data` as the document itself
      if (name === 'id') return { kind: 'field', key, field: 'id', text: true };
      if (name === 'attributes' || name === 'data')
        return { kind: 'object', key, layout: documentLayout(pc, uid, sub) };
    }
    if (flat && name.endsWith(CONNECTION)) return connectionEntry(pc, uid, typeName, key, sub, count);
    if (name !== LOCALIZATIONS || Object.hasOwn(ct.attributes, name)) return undefined;
    const link = linkOf(pc, uid, name);
    return link && linkEntry(pc, typeName, key, sub, LOCALIZATIONS, link, count);
  });
}

/** The fields selected on a component type (`ComponentSharedSeo`): `id` (a string, as an ID), attributes. */
export function componentLayout(pc: PlanContext, uid: string, nodes: FieldNode[]): Layout {
  const typeName = componentName(uid);
  const compat = pc.model.shape === 'flat' && pc.model.v4Compat;
  return membersLayout(pc, typeName, fieldsOf(pc, typeName, nodes), (key, sub) => {
    const name = fieldName(sub);
    if (name === 'id') return { kind: 'field', key, field: 'id', text: true };
    if (compat && (name === 'attributes' || name === 'data'))
      return { kind: 'object', key, layout: componentLayout(pc, uid, sub) };
    return undefined;
  });
}

/**
 * The key under which a document's or component's own object is read for the app's resolvers
 * (custom fields, and fields with middlewares or policies): not a GraphQL name, so no alias
 * can take it. The wrapper gives it to them as their parent (extension/wrap.ts).
 */
export const SOURCE_KEY = '$source';

/**
 * The parent Strapi's resolvers get: every scalar attribute but private ones (passwords
 * included), the ids and the system fields, under their names.
 */
function sourceLayout(pc: PlanContext, uid: string, document: boolean): Layout {
  const out: Layout = [{ kind: 'field', key: 'id', field: 'id', text: !document }];
  if (document) {
    out.push({ kind: 'field', key: 'documentId', field: 'documentId' });
    for (const name of SYSTEM) out.push({ kind: 'field', key: name, field: name });
  }
  for (const [name, attr] of Object.entries(pc.registry.attributesOf(uid))) {
    if (isScalar(attr) && attr.type !== 'password' && attr.private !== true)
      out.push({ kind: 'field', key: name, field: name });
  }
  return out;
}

/** Attributes and `__typename` of a document or component type; `special` answers the other fields. */
function membersLayout(
  pc: PlanContext,
  typeName: string,
  fields: Collected,
  special: (key: string, nodes: FieldNode[], count: ReturnType<typeof amountCounter>) => LayoutEntry | undefined,
): Layout {
  const role = pc.model.roles.get(typeName);
  const uid = role && 'uid' in role ? role.uid : undefined;
  const attrs = uid ? pc.registry.attributesOf(uid) : {};
  const count = amountCounter(pc);
  const out: Layout = [];
  // only once the request is known to go through `execute` (fieldsOf noted such a field)
  if (uid && pc.resolved && selectsResolved(pc, typeName, fields))
    out.push({ kind: 'object', key: SOURCE_KEY, layout: sourceLayout(pc, uid, role?.kind === 'document') });
  for (const [key, sub] of fields) {
    const name = fieldName(sub);
    if (name === '__typename') {
      out.push({ kind: 'value', key, value: typeName });
      continue;
    }
    const entry =
      special(key, sub, count) ??
      (uid && Object.hasOwn(attrs, name) ? attributeEntry(pc, typeName, uid, key, sub, attrs[name], count) : undefined);
    if (entry) out.push(entry);
  }
  return out;
}
