/**
 * A selection set planned into the core's layout: each response key of an entity, a document's
 * attributes or a component instance becomes a field, a constant (`__typename`), an object read
 * from the same row (`attributes`, a relation's `{ data }` wrapper) or a populated attribute with
 * its own filters, sort, window and status. The whole tree is one SQL statement (core/query).
 */
import { type FieldNode, getArgumentValues, GraphQLError } from 'graphql';
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
import { fieldsOf, objectTypeOf, type PlanContext } from './context.ts';

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

/**
 * A relation's (or media's, or `localizations`') `{ data }` wrapper: each `data` key a populate of
 * the attribute with the wrapper field's arguments, each item laid out as an entity.
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
    else if (field === 'data') out.push({ kind: 'populate', key, node: populate(sub) });
  }
  return out;
}

/** A field the caller may not read: null, and Strapi's FORBIDDEN error. */
function forbiddenField(pc: PlanContext, key: string, value: [] | null = null): LayoutEntry {
  pc.forbidden++;
  return { kind: 'value', key, value };
}

/** The flat shape's lists are non-null (`tags: [Tag]!`): one the caller may not read is empty, not null. */
const deniedList = (pc: PlanContext): [] | null => (pc.model.shape === 'flat' ? [] : null);

/** One response key of a document's attributes or a component instance (`owner` is its type name). */
function attributeEntry(
  pc: PlanContext,
  owner: string,
  key: string,
  nodes: FieldNode[],
  attr: Attribute,
  count: ReturnType<typeof amountCounter>,
): LayoutEntry {
  const name = fieldName(nodes);
  if (isScalar(attr)) return { kind: 'field', key, field: name };
  const outType = objectTypeOf(pc, owner)
    .getFields()
    [name].type.toString()
    .replace(/[[\]!]/g, '');
  if (attr.type === 'relation' || attr.type === 'media') {
    const target = attr.type === 'relation' ? attr.target : FILE_UID;
    const action = attr.type === 'relation' ? findActionOf(target) : MEDIA_FIND_ACTION;
    const many = attr.type === 'relation' ? isToMany(attr) : attr.multiple === true;
    if (!pc.auth.allows(action)) return forbiddenField(pc, key, many ? deniedList(pc) : null);
    const args = argsOf(pc, owner, nodes);
    const options = many ? listOptions(pc, target, args, count, name) : {};
    // Strapi 5: the target's documents themselves (`author { name }`, `tags { name }`), no wrapper
    if (pc.model.shape === 'flat') {
      return { kind: 'populate', key, node: { ...options, attribute: name, layout: itemLayout(pc, target, nodes) } };
    }
    const layout = wrapper(pc, outType, nodes, (data) => ({
      ...options,
      attribute: name,
      layout: entityLayout(pc, target, data),
    }));
    return { kind: 'object', key, layout };
  }
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

/**
 * The flat shape's `tags_connection { nodes }` (`localizations_connection` too): the same
 * populate as `tags`, under `nodes`, with the connection field's own arguments.
 */
function connectionEntry(
  pc: PlanContext,
  uid: string,
  typeName: string,
  key: string,
  nodes: FieldNode[],
  count: ReturnType<typeof amountCounter>,
): LayoutEntry | undefined {
  const name = fieldName(nodes);
  const base = name.slice(0, -CONNECTION.length);
  const attrs = pc.registry.attributesOf(uid);
  const attr = Object.hasOwn(attrs, base) ? attrs[base] : undefined;
  let target: string;
  let action: string;
  if (attr?.type === 'relation' && isToMany(attr)) [target, action] = [attr.target, findActionOf(attr.target)];
  else if (attr?.type === 'media' && attr.multiple === true) [target, action] = [FILE_UID, MEDIA_FIND_ACTION];
  else if (!attr && base === LOCALIZATIONS) [target, action] = [uid, findActionOf(uid)];
  else return undefined;
  if (!pc.auth.allows(action)) return forbiddenField(pc, key);
  const options = listOptions(pc, target, argsOf(pc, typeName, nodes), count, name);
  const outType = objectTypeOf(pc, typeName)
    .getFields()
    [name].type.toString()
    .replace(/[[\]!]/g, '');
  const layout: Layout = [];
  for (const [k, sub] of fieldsOf(pc, outType, nodes)) {
    const field = fieldName(sub);
    if (field === '__typename') layout.push({ kind: 'value', key: k, value: outType });
    // v4CompatibilityMode's deprecated `data` is `nodes` again
    else if (field === 'nodes' || (field === 'data' && pc.model.v4Compat))
      layout.push({
        kind: 'populate',
        key: k,
        node: { ...options, attribute: base, layout: documentLayout(pc, target, sub) },
      });
  }
  return { kind: 'object', key, layout };
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
    if (!pc.auth.allows(findActionOf(uid))) return forbiddenField(pc, key, deniedList(pc));
    const options = listOptions(pc, uid, argsOf(pc, typeName, sub), count, name);
    if (flat) {
      return {
        kind: 'populate',
        key,
        node: { ...options, attribute: LOCALIZATIONS, layout: documentLayout(pc, uid, sub) },
      };
    }
    const outType = `${typeName}RelationResponseCollection`;
    const layout = wrapper(pc, outType, sub, (data) => ({
      ...options,
      attribute: LOCALIZATIONS,
      layout: entityLayout(pc, uid, data),
    }));
    return { kind: 'object', key, layout };
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
  if (uid && [...fields.values()].some((sub) => pc.model.resolved.has(`${typeName}.${fieldName(sub)}`)))
    out.push({ kind: 'object', key: SOURCE_KEY, layout: sourceLayout(pc, uid, role?.kind === 'document') });
  for (const [key, sub] of fields) {
    const name = fieldName(sub);
    if (name === '__typename') {
      out.push({ kind: 'value', key, value: typeName });
      continue;
    }
    const entry =
      special(key, sub, count) ??
      (Object.hasOwn(attrs, name) ? attributeEntry(pc, typeName, key, sub, attrs[name], count) : undefined);
    if (entry) out.push(entry);
  }
  return out;
}
