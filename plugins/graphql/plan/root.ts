/**
 * A Query field of the shadow CRUD planned into one read of the document service: its
 * arguments, the layout of each document, and how the field's own object (`data`, `meta`,
 * `__typename`, under their response keys) is put together around what the read returns.
 */
import { type FieldNode, getArgumentValues, getNamedType } from 'graphql';
import {
  assertQueryAccess,
  type FilterNode,
  forbidden,
  type Layout,
  type SortSpec,
  type Status,
} from '../../../core/index.ts';
import { entityCollection, entityResponse } from '../naming.ts';
import type { RootField } from '../schema/model.ts';
import { filtersOf, type ListWindow, localeOf, sortOf, statusOf, windowOf } from './args.ts';
import { fieldsOf, objectTypeOf, type PlanContext } from './context.ts';
import { documentLayout, itemLayout } from './layout.ts';

/** One key of `meta.pagination`. */
export type PaginationKey = { key: string; value: 'total' | 'page' | 'pageSize' | 'pageCount' | '__typename' };

/** The keys of a root field's object, in order. */
export type RootPart =
  | { kind: 'typename'; key: string; value: string }
  | { kind: 'data'; key: string }
  | {
      kind: 'meta';
      key: string;
      parts: Array<{ kind: 'typename'; key: string } | { kind: 'pagination'; key: string; keys: PaginationKey[] }>;
    }
  /** the flat shape's `pageInfo` of a connection: the pagination itself */
  | { kind: 'pageInfo'; key: string; keys: PaginationKey[] };

export interface RootPlan {
  key: string;
  root: RootField;
  status: Status;
  locale?: string;
  filters?: FilterNode;
  sort?: SortSpec[];
  /** lists: the page */
  window?: ListWindow;
  /** lists: whether `meta.pagination` needs the total */
  count: boolean;
  /** findOne: the id argument */
  id?: string | null;
  /** the response keys `data` is selected under */
  dataKeys: string[];
  /** each document's layout; with several `data` keys, an object per key */
  layout: Layout;
  parts: RootPart[];
  /** nested fields left null because the caller may not read them (one FORBIDDEN error each) */
  forbidden: number;
  /** findOne: `id` is a documentId whatever the type (the flat shape); else as the type's REST routes address it */
  byDocumentId?: boolean;
  /**
   * The flat shape's `articles`, `article`, `global`: the field's value is the read's own (a list,
   * a document or null), not an object around it; `parts` is then empty.
   */
  bare?: boolean;
}

const NEEDS_TOTAL: ReadonlySet<string> = new Set(['total', 'pageCount']);

function metaPart(pc: PlanContext, key: string, nodes: FieldNode[]): RootPart {
  const parts: Extract<RootPart, { kind: 'meta' }>['parts'] = [];
  for (const [k, sub] of fieldsOf(pc, 'ResponseCollectionMeta', nodes)) {
    const name = sub[0].name.value;
    if (name === '__typename') parts.push({ kind: 'typename', key: k });
    else {
      parts.push({ kind: 'pagination', key: k, keys: paginationKeys(pc, sub) });
    }
  }
  return { kind: 'meta', key, parts };
}

/** What a read made for an app's resolver adds to its field's own arguments (read.ts). */
export interface ExtraArgs {
  /** and-ed with the field's `filters`; the resolver's own, so not checked against the caller's rights */
  filters?: FilterNode;
  /** the document a findOne reads */
  id?: string;
}

/**
 * Plan the root field `root` selected under `key` by `nodes`; `parent` is the type the field is
 * on: `Query`, `Mutation` for the read a write answers with (its response has the same shape as
 * a findOne's), or any type whose field an app's resolver answers with a read (read.ts).
 */
export function planRoot(
  pc: PlanContext,
  key: string,
  nodes: FieldNode[],
  root: RootField,
  parent = 'Query',
  extra: ExtraArgs = {},
): RootPlan {
  // as Strapi's resolvers: a root field the caller may not use is null with FORBIDDEN
  if (!pc.auth.allows(root.action)) throw forbidden();
  const typeName = pc.model.typeOf(root.uid);
  const def = objectTypeOf(pc, parent).getFields()[nodes[0].name.value];
  const args = getArgumentValues(def, nodes[0], pc.op.variables);
  const status = statusOf(args);
  if (status === 'draft') pc.readsDrafts = true;
  const plan: RootPlan = {
    key,
    root,
    status,
    locale: localeOf(args.locale),
    count: false,
    dataKeys: [],
    layout: [],
    parts: [],
    forbidden: 0,
  };
  // Strapi 5 keeps a `{ data }` response for users' writes (`UsersPermissionsUserEntityResponse`):
  // planned as Strapi 4's, the flat document inside
  const returned = getNamedType(def.type).name;
  if (pc.model.shape === 'flat' && pc.model.roles.get(returned)?.kind !== 'entityResponse')
    return planFlat(pc, plan, key, nodes, args, extra);
  const list = root.kind === 'find';
  objectParts(pc, plan, list ? entityCollection(typeName) : entityResponse(typeName), nodes);
  if (root.kind === 'findOne') plan.id = extra.id ?? (typeof args.id === 'string' ? args.id : null);
  if (list) listArgs(pc, plan, args, extra);
  plan.forbidden = pc.forbidden;
  return plan;
}

/** Whether a part shows `total` or `pageCount`: the read then counts. */
function needsTotal(part: RootPart): boolean {
  const keys =
    part.kind === 'pageInfo'
      ? part.keys
      : part.kind === 'meta'
        ? part.parts.flatMap((p) => (p.kind === 'pagination' ? p.keys : []))
        : [];
  return keys.some((x) => NEEDS_TOTAL.has(x.value));
}

/**
 * The keys of a root field's object (`outType`), in either shape: the documents under `data`
 * (Strapi 4, and v4CompatibilityMode's) or `nodes` (Strapi 5), the pagination under `meta` or
 * `pageInfo`, `__typename`.
 */
function objectParts(pc: PlanContext, plan: RootPlan, outType: string, nodes: FieldNode[]): void {
  const layouts: Array<[string, Layout]> = [];
  for (const [k, sub] of fieldsOf(pc, outType, nodes)) {
    const name = sub[0].name.value;
    if (name === '__typename') plan.parts.push({ kind: 'typename', key: k, value: outType });
    else if (name === 'data' || name === 'nodes') {
      plan.parts.push({ kind: 'data', key: k });
      plan.dataKeys.push(k);
      layouts.push([k, itemLayout(pc, plan.root.uid, sub)]);
    } else if (name === 'meta') plan.parts.push(metaPart(pc, k, sub));
    else if (name === 'pageInfo') plan.parts.push({ kind: 'pageInfo', key: k, keys: paginationKeys(pc, sub) });
  }
  plan.layout = layoutOf(layouts);
  plan.count = plan.parts.some(needsTotal);
}

/** Each `data` key's layout: the one, or with several keys an object per key. */
const layoutOf = (layouts: Array<[string, Layout]>): Layout =>
  layouts.length === 1 ? layouts[0][1] : layouts.map(([k, layout]) => ({ kind: 'object', key: k, layout }));

function paginationKeys(pc: PlanContext, nodes: FieldNode[]): PaginationKey[] {
  const keys: PaginationKey[] = [];
  for (const [pk, psub] of fieldsOf(pc, 'Pagination', nodes)) {
    keys.push({ key: pk, value: psub[0].name.value as PaginationKey['value'] });
  }
  return keys;
}

/** A list's filters, sort and window, checked against the caller's rights; `extra.filters` and-ed in. */
function listArgs(pc: PlanContext, plan: RootPlan, args: Record<string, unknown>, extra: ExtraArgs): void {
  const { uid } = plan.root;
  plan.filters = filtersOf(pc.registry, uid, args.filters);
  plan.sort = sortOf(pc.registry, uid, args.sort);
  assertQueryAccess({ filters: plan.filters, sort: plan.sort }, (action) => pc.auth.allows(action));
  if (extra.filters)
    plan.filters = plan.filters ? { type: 'and', nodes: [plan.filters, extra.filters] } : extra.filters;
  plan.window = windowOf(args.pagination, pc.limits);
}

/**
 * Strapi 5's root fields: `articles` (a list) and `article(documentId)` / `global` (a document)
 * answer the read itself; `articles_connection` answers `{ nodes pageInfo }`.
 */
function planFlat(
  pc: PlanContext,
  plan: RootPlan,
  key: string,
  nodes: FieldNode[],
  args: Record<string, unknown>,
  extra: ExtraArgs,
): RootPlan {
  const { root } = plan;
  if (root.kind === 'connection') {
    objectParts(pc, plan, entityCollection(pc.model.typeOf(root.uid)), nodes);
    listArgs(pc, plan, args, extra);
  } else {
    plan.bare = true;
    plan.dataKeys = [key];
    plan.layout = documentLayout(pc, root.uid, nodes);
    if (root.kind === 'find') listArgs(pc, plan, args, extra);
    if (root.kind === 'findOne') {
      plan.id = extra.id ?? (typeof args.documentId === 'string' ? args.documentId : null);
      // Strapi 5 addresses every type's documents by documentId, plugin types' (files, users) included
      plan.byDocumentId = true;
    }
  }
  plan.forbidden = pc.forbidden;
  return plan;
}

/** `meta.pagination` as Strapi 4 computes it (`response-collection-meta.js`). */
export function paginationValues(window: ListWindow, total: number | null): Record<string, number | null> {
  const { start, limit } = window;
  if (limit === null) {
    const t = total ?? 0;
    return { total, page: 1, pageSize: Math.max(t - start, 0), pageCount: 1 };
  }
  return {
    total,
    page: Math.floor(start / limit) + 1,
    pageSize: limit,
    pageCount: total === null ? null : Math.ceil(total / limit),
  };
}
