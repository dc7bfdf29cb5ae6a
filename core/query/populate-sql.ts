/**
 * A read compiled to SQL that builds the documents' JSON in PostgreSQL: scalar fields, the
 * timestamps as the API prints them, and the whole populate tree (relations, media,
 * components, dynamic zones, localizations) as correlated subqueries. However many rows and
 * populated documents, a read is one statement.
 *
 * Attribute names and uids are spliced into the SQL as literals and table names as quoted
 * identifiers (a collectionName may be a reserved word: `order`, `user`): they are names the
 * schema validator accepted (`^[A-Za-z_][A-Za-z0-9_]*$`, `api::x.y`), never request input.
 * Everything that comes from a request (locales, filter values) is a bound parameter.
 */
import type { Registry } from '../content-types/registry.ts';
import {
  FILE_UID,
  isLocalized,
  isScalar,
  isToMany,
  type Attribute,
  type Attributes,
  type ContentType,
} from '../content-types/types.ts';
import { invalidQueryKey, validationError } from '../errors.ts';
import { attributeOf, LOCALIZATIONS, type Layout, type PopulateNode, type PopulateTree } from './types.ts';
import { compileFilters } from './filters.ts';
import { compileInstanceSort, compileSort } from './sort.ts';
import {
  COLUMNS,
  fragment as frag,
  isoTimestamp,
  joinFragments as join,
  ORDER_KEY,
  qualified as col,
  quote,
  type SqlFragment as Frag,
} from './sql.ts';
import { scopeCondition, type Scope } from './scope-sql.ts';

/** What a document or component renders: its scalar fields (all when unset) and what it populates. */
export interface Shape {
  fields?: string[];
  populate?: PopulateTree;
  /** another API's layout (GraphQL's): replaces `fields` and `populate` (see `layoutJson`) */
  layout?: Layout;
}

export interface SelectContext {
  registry: Registry;
  scope: Scope;
  /** leave private and password attributes out at every level (every read but a `raw` one) */
  redact: boolean;
  /** fresh table aliases for nested subqueries */
  alias(): string;
  /** in a list read: relations and media of the page's documents, rendered once per read (see `SharedRenders`) */
  shared?: SharedRenders;
  /** the app's render versions (render-sql.ts `createRenderVersions`), which a kept text is checked against */
  renderVersion?: (ct: ContentType) => number;
  /**
   * The document row being rendered (set by `documentJson` for what it populates): in a read of
   * every locale, a localized relation resolves in that row's own locale.
   */
  row?: { alias: string; ct: ContentType };
}

/**
 * A list read renders each related document once, however many documents of the page point at
 * it: the relations and media the page's documents populate directly (owning side, without
 * their own filters, sort, count or total; a window is cut from each document's list) become
 * MATERIALIZED CTEs over the documents the page references, and each page document looks its
 * own up there. On the bench's 25-article
 * `populate=*` page (25 authors, 75 tags, 75 files referenced, but only 20, 30 and 6 distinct),
 * this is most of PostgreSQL's work saved.
 */
export interface SharedRenders {
  /** the page documents' alias in the main query */
  root: string;
  /** the CTE holding the page's rows */
  page: string;
  /** `name AS MATERIALIZED (...)` clauses, in order */
  ctes: Frag[];
  /**
   * Set when the page's documents are joined as JSON text (`documentText`, which splices what they
   * populate): each shared document is rendered by it (so a target's kept render is taken as it is),
   * and a lookup answers text, a list joined with `string_agg`. As json, PostgreSQL would parse every
   * kept render it is handed, and build every list value by value.
   */
  asText?: (ctx: SelectContext, ct: ContentType, alias: string, shape: Shape) => Frag;
}

/** The lookup key of a shared render: document ids (text) for relations, file ids for media. */
interface SharedTarget {
  ct: ContentType;
  key: typeof COLUMNS.documentId | typeof COLUMNS.id;
  toMany: boolean;
}

/**
 * Register the CTE rendering `target` once for every document the page references under `name`;
 * returns its name. One CTE per populate node, never per attribute: two aliases of one relation
 * (different fields, nested populate) each get their own.
 */
function shareRender(
  ctx: SelectContext,
  shared: SharedRenders,
  target: SharedTarget,
  name: string,
  node: PopulateNode,
): string {
  // quoted names with a colon: no collectionName can take them (`^[a-z_][a-z0-9_]*$`), so no CTE hides a table
  const h = `"v:shared:${shared.ctes.length + 1}"`;
  const t = ctx.alias();
  const doc = (shared.asText ?? documentJson)({ ...ctx, shared: undefined }, target.ct, t, node);
  const scope = target.key === COLUMNS.documentId ? scopeCondition(target.ct, t, ctx.scope) : frag('TRUE');
  const value = `${col('p', COLUMNS.data)}->${lit(name)}`;
  // file ids are JSON numbers (compared as bigint, so the primary key serves); document ids are text
  const cast = target.key === COLUMNS.id ? '::bigint' : '';
  const refs = target.toMany
    ? `SELECT "x"."v"${cast} FROM ${shared.page} "p", jsonb_array_elements_text(${arrayOf(value)}) "x"("v")`
    : `SELECT (${col('p', COLUMNS.data)}->>${lit(name)})${cast} FROM ${shared.page} "p"` +
      (target.key === COLUMNS.id ? ` WHERE jsonb_typeof(${value}) = 'number'` : '');
  const key = col(t, target.key);
  shared.ctes.push(
    frag(
      `${h} AS MATERIALIZED (SELECT DISTINCT ON (${key}) ${key} AS "k", ${doc.sql} AS "j" ` +
        `FROM ${quote(target.ct.collectionName)} ${quote(t)} WHERE ${key} IN (${refs}) AND ${scope.sql} ` +
        `ORDER BY ${key}, ${col(t, COLUMNS.id)})`,
      [...doc.bindings, ...scope.bindings],
    ),
  );
  return h;
}

/**
 * A page document's own related documents, looked up in a shared render; a window (GraphQL's
 * nested pagination) is cut from the list of those found, in the stored order.
 */
function lookUp(
  h: string,
  data: string,
  name: string,
  target: SharedTarget,
  ctx: SelectContext,
  window?: PopulateNode['pagination'],
): Frag {
  const value = `${data}->${lit(name)}`;
  const cast = target.key === COLUMNS.id ? '::bigint' : '';
  if (!target.toMany) {
    const guard = target.key === COLUMNS.id ? `jsonb_typeof(${value}) = 'number' AND ` : '';
    return frag(`(SELECT ${h}."j" FROM ${h} WHERE ${guard}${h}."k" = (${data}->>${lit(name)})${cast})`);
  }
  const o = ctx.alias();
  const found =
    `FROM jsonb_array_elements_text(${arrayOf(value)}) WITH ORDINALITY ${quote(o)}("v", "n") ` +
    `JOIN ${h} ON ${h}."k" = ${col(o, 'v')}${cast}`;
  const text = ctx.shared?.asText !== undefined;
  // the renders in stored order: a json array, or their texts joined
  const agg = (j: string, n: string): string =>
    text ? `'[' || string_agg(${j}, ',' ORDER BY ${n}) || ']'` : `json_agg(${j} ORDER BY ${n})`;
  const none = (inner: Frag): Frag => (text ? frag(`COALESCE((${inner.sql}), '[]')`, inner.bindings) : list(inner));
  if (!window) return none(frag(`SELECT ${agg(`${h}."j"`, col(o, 'n'))} ${found}`));
  const w = ctx.alias();
  const cut = `OFFSET ?${window.limit === null ? '' : ' LIMIT ?'}`;
  return none(
    frag(
      `SELECT ${agg(col(w, 'j'), col(w, 'n'))} FROM ` +
        `(SELECT ${h}."j", ${col(o, 'n')} ${found} ORDER BY ${col(o, 'n')} ${cut}) ${quote(w)}`,
      [window.start, ...(window.limit === null ? [] : [window.limit])],
    ),
  );
}

/** Whether this populate of a page document can be a shared render. */
const shareable = (
  ctx: SelectContext,
  owner: { alias: string } | null,
  node: PopulateNode,
): ctx is SelectContext & { shared: SharedRenders } =>
  ctx.shared !== undefined &&
  owner !== null &&
  owner.alias === ctx.shared.root &&
  !node.filters &&
  !(node.sort && node.sort.length > 0) &&
  !node.count &&
  // a window is cut from the document's own list of shared renders (`lookUp`); a total is not
  !node.total;

const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;
/** The elements of a jsonb value that should be an array; none when it is anything else. */
const arrayOf = (value: string): string =>
  `CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]'::jsonb END`;
const SYSTEM = ['createdAt', 'updatedAt', 'publishedAt'] as const;

const hidden = (attr: Attribute): boolean => attr.private === true || attr.type === 'password';

/**
 * `json_build_object` keeps key order (Strapi's: id, documentId, attributes, timestamps,
 * then populated ones) but takes at most 100 arguments; wider objects are merged as jsonb.
 */
export function object(pairs: Array<[string, Frag]>): Frag {
  const chunks: Array<Array<[string, Frag]>> = [];
  for (let i = 0; i < pairs.length; i += 50) chunks.push(pairs.slice(i, i + 50));
  const build = (fn: string, chunk: Array<[string, Frag]>): Frag => ({
    sql: `${fn}(${chunk.map(([k, v]) => `${lit(k)}, ${v.sql}`).join(', ')})`,
    bindings: chunk.flatMap(([, v]) => v.bindings),
  });
  if (chunks.length <= 1) return build('json_build_object', chunks[0] ?? []);
  const parts = chunks.map((c) => build('jsonb_build_object', c));
  return { sql: `(${parts.map((p) => p.sql).join(' || ')})::json`, bindings: parts.flatMap((p) => p.bindings) };
}

/**
 * A scalar attribute's value in the JSON, from the jsonb holding it. A `timestamp` is stored as
 * ISO text (so it sorts and compares like a datetime) and shown as Strapi 5 shows it: its epoch
 * milliseconds, as a string.
 */
function scalarJson(attr: Attribute, data: string, name: string): Frag {
  if (attr.type !== 'timestamp') return frag(`${data}->${lit(name)}`);
  return frag(`((extract(epoch FROM (${data}->>${lit(name)})::timestamptz) * 1000)::bigint)::text`);
}

/** Scalar attributes a shape shows, in schema order. */
function scalars(redact: boolean, attrs: Attributes, fields?: string[]): string[] {
  const wanted = fields ? new Set(fields) : null;
  return (
    Object.entries(attrs)
      // naming a private attribute in `fields` does not reveal it: only a raw read does
      .filter(([name, attr]) => isScalar(attr) && !(redact && hidden(attr)) && (wanted ? wanted.has(name) : true))
      .map(([name]) => name)
  );
}

/** The JSON of one document row under `alias`. */
export function documentJson(ctx: SelectContext, ct: ContentType, alias: string, shape: Shape): Frag {
  if (shape.layout) return layoutJson({ ...ctx, row: { alias, ct } }, { row: { alias, ct } }, shape.layout);
  return object([...ownPairs(ctx.redact, ct, alias, shape.fields), ...populatedPairs(ctx, ct, alias, shape)]);
}

/**
 * The keys of a document row's own fields under `alias`, in Strapi's order: id, documentId, the
 * scalar attributes `fields` names (all when unset) in schema order, the timestamps, the locale.
 * With `redact`, private and password attributes are left out.
 */
export function ownPairs(redact: boolean, ct: ContentType, alias: string, fields?: string[]): Array<[string, Frag]> {
  const pairs: Array<[string, Frag]> = [
    ['id', frag(col(alias, COLUMNS.id))],
    ['documentId', frag(col(alias, COLUMNS.documentId))],
  ];
  for (const name of scalars(redact, ct.attributes, fields)) {
    pairs.push([name, scalarJson(ct.attributes[name], col(alias, COLUMNS.data), name)]);
  }
  for (const key of SYSTEM)
    if (!fields || fields.includes(key)) pairs.push([key, frag(isoTimestamp(col(alias, COLUMNS[key])))]);
  if (isLocalized(ct) && (!fields || fields.includes('locale')))
    pairs.push(['locale', frag(col(alias, COLUMNS.locale))]);
  return pairs;
}

/** The keys a document row under `alias` populates, after its own (each value a JSON expression). */
export function populatedPairs(
  ctx: SelectContext,
  ct: ContentType,
  alias: string,
  shape: Shape,
): Array<[string, Frag]> {
  const inner: SelectContext = { ...ctx, row: { alias, ct } };
  const data = col(alias, COLUMNS.data);
  return Object.entries(shape.populate ?? {}).map(([key, node]) => [
    key,
    populated(inner, ct.attributes, data, attributeOf(key, node), node, { alias, ct }),
  ]);
}

/**
 * The JSON of the component or dynamic zone `name` of a document row under `alias`, as a read
 * populating it with nothing more (`populate=*`, `populate[name]=true`) shows it, to anyone: the
 * expression kept renders of parts are made from (render-sql.ts). It reads the row alone: no
 * scope, no bind parameters.
 */
export function plainPartJson(registry: Registry, ct: ContentType, alias: string, name: string): Frag {
  let n = 0;
  const ctx: SelectContext = {
    registry,
    scope: { status: 'published', locale: null },
    redact: true,
    alias: () => `k${++n}`,
  };
  return populated(ctx, ct.attributes, col(alias, COLUMNS.data), name, {}, { alias, ct });
}

/**
 * Which versions of `target` (under `alias`) a relation shows: the read's status and locale; in
 * a read of every locale (`*`), a localized target in the locale of the row that holds it.
 */
function targetScope(ctx: SelectContext, target: ContentType, alias: string): Frag {
  const scope = scopeCondition(target, alias, ctx.scope);
  const row = ctx.row;
  if (ctx.scope.locale !== '*' || !row || !isLocalized(target) || !isLocalized(row.ct)) return scope;
  return frag(`${scope.sql} AND ${col(alias, COLUMNS.locale)} = ${col(row.alias, COLUMNS.locale)}`, scope.bindings);
}

/** The JSON of one component instance (a jsonb expression); dynamic zone items lead with `__component`. */
function componentJson(ctx: SelectContext, uid: string, expr: string, shape: Shape, inZone: boolean): Frag {
  if (shape.layout) return layoutJson(ctx, { instance: { uid, expr } }, shape.layout);
  const attrs = ctx.registry.component(uid).attributes;
  const pairs: Array<[string, Frag]> = [];
  if (inZone) pairs.push(['__component', frag(`${expr}->'__component'`)]);
  pairs.push(['id', frag(`${expr}->'id'`)], ['documentId', frag(`${expr}->'documentId'`)]);
  for (const name of scalars(ctx.redact, attrs, shape.fields)) pairs.push([name, scalarJson(attrs[name], expr, name)]);
  for (const [key, node] of Object.entries(shape.populate ?? {})) {
    pairs.push([key, populated(ctx, attrs, expr, attributeOf(key, node), node, null)]);
  }
  return object(pairs);
}

/** What a layout reads: a document row, or a component instance (a jsonb expression). */
type LayoutSource = { row: { alias: string; ct: ContentType } } | { instance: { uid: string; expr: string } };

const SYSTEM_FIELDS: ReadonlySet<string> = new Set(['id', 'documentId', 'locale', ...SYSTEM]);

/** One field of a layout's source as JSON: a system column, or a scalar attribute as stored. */
function layoutField(ctx: SelectContext, src: LayoutSource, field: string, text: boolean): Frag {
  const asText = (expr: string): Frag => frag(`to_json((${expr})::text)`);
  if ('instance' in src) {
    const { uid, expr } = src.instance;
    if (field === 'id') return text ? asText(`${expr}->>'id'`) : frag(`${expr}->'id'`);
    const attr = ctx.registry.component(uid).attributes[field];
    if (!attr || !isScalar(attr) || (ctx.redact && hidden(attr))) return frag('NULL::json');
    return text ? asText(`${expr}->>${lit(field)}`) : frag(`${expr}->${lit(field)}`);
  }
  const { alias, ct } = src.row;
  if (SYSTEM_FIELDS.has(field)) {
    const column = col(alias, COLUMNS[field as keyof typeof COLUMNS]);
    if (field === 'id' || field === 'documentId' || field === 'locale') return text ? asText(column) : frag(column);
    return frag(`to_json(${isoTimestamp(column)})`);
  }
  const attr = Object.hasOwn(ct.attributes, field) ? ct.attributes[field] : undefined;
  // a private attribute asked for by name is not revealed, as with REST's `fields`
  if (!attr || !isScalar(attr) || (ctx.redact && hidden(attr))) return frag('NULL::json');
  const data = col(alias, COLUMNS.data);
  return text ? asText(`${data}->>${lit(field)}`) : frag(`${data}->${lit(field)}`);
}

/**
 * A document or component instance in a caller's layout: its keys in order, each a constant, a
 * field, an object of the same source, or a populated attribute (a sub-select, as in REST's shape).
 */
function layoutJson(ctx: SelectContext, src: LayoutSource, layout: Layout): Frag {
  const pairs: Array<[string, Frag]> = layout.map((entry): [string, Frag] => {
    switch (entry.kind) {
      case 'value':
        return [entry.key, frag(`${lit(JSON.stringify(entry.value))}::json`)];
      case 'field':
        return [entry.key, layoutField(ctx, src, entry.field, entry.text === true)];
      case 'object':
        return [entry.key, layoutJson(ctx, src, entry.layout)];
      default: {
        const name = attributeOf(entry.key, entry.node);
        if ('instance' in src) {
          const attrs = ctx.registry.component(src.instance.uid).attributes;
          return [entry.key, populated(ctx, attrs, src.instance.expr, name, entry.node, null)];
        }
        const { alias, ct } = src.row;
        return [entry.key, populated(ctx, ct.attributes, col(alias, COLUMNS.data), name, entry.node, { alias, ct })];
      }
    }
  });
  return object(pairs);
}

/** `(SELECT json_agg(...) ...)`, with `[]` instead of NULL for none. */
const list = (inner: Frag): Frag => frag(`COALESCE((${inner.sql}), '[]'::json)`, inner.bindings);

/** A populated list's items: read under `alias` from the rows of `body` (`FROM … [WHERE …]`), in `order`. */
interface Items {
  alias: string;
  /** what a windowed read keeps of each row for `item`: `t.*` of a table, `e.v` of array items */
  columns: string;
  /** one item's JSON, read from `alias` */
  item: Frag;
  body: Frag;
  order: Frag;
}

/**
 * A populated list as JSON: every item in order; with the node's `pagination`, only that window,
 * cut in the sub-select (the items are numbered in order, and only the window's are rendered);
 * with `total`, `{ nodes, total }`, the total counting the whole list.
 */
function listJson(items: Items, node: PopulateNode): Frag {
  const { alias, item, body, order } = items;
  const p = node.pagination;
  const bindings = [...item.bindings, ...order.bindings, ...body.bindings];
  let nodes: Frag;
  if (!p) {
    nodes = list(frag(`SELECT json_agg(${item.sql} ORDER BY ${order.sql}) ${body.sql}`, bindings));
  } else {
    // numbered by the window function, cut before the items' JSON is built (outside the cut)
    const window =
      `SELECT ${items.columns}, row_number() OVER (ORDER BY ${order.sql}) AS ${POSITION} ${body.sql}` +
      ` ORDER BY ${POSITION} OFFSET ?${p.limit === null ? '' : ' LIMIT ?'}`;
    nodes = list(
      frag(`SELECT json_agg(${item.sql} ORDER BY ${quote(alias)}.${POSITION}) FROM (${window}) ${quote(alias)}`, [
        ...bindings,
        p.start,
        ...(p.limit === null ? [] : [p.limit]),
      ]),
    );
  }
  if (!node.total) return nodes;
  const total = frag(`(SELECT count(*) ${body.sql})`, body.bindings);
  const wrapped = `json_build_object('nodes', ${nodes.sql}, 'total', ${total.sql})`;
  return frag(wrapped, [...nodes.bindings, ...total.bindings]);
}

/** An item's position in a windowed list (a quoted name no column takes). */
const POSITION = '"v:n"';

/** Whether `attr` populates as a list, which `pagination` and `total` apply to. */
const isList = (attr: Attribute): boolean =>
  (attr.type === 'relation' && isToMany(attr)) ||
  (attr.type === 'media' && attr.multiple === true) ||
  (attr.type === 'component' && attr.repeatable === true) ||
  attr.type === 'dynamiczone';

/**
 * The attribute a node populates. The tree comes from code (GraphQL, plugins), unchecked by
 * `resolvePopulate`: an attribute that is none, or a window on a single value, is refused here.
 */
function attributeNamed(attrs: Attributes, name: string, node: PopulateNode): Attribute {
  const attr = Object.hasOwn(attrs, name) ? attrs[name] : undefined;
  if (!attr) throw invalidQueryKey(name, null, 'populate');
  const details = { key: name, param: 'populate' };
  if ((node.pagination || node.total) && !isList(attr)) {
    throw validationError(`${name} is not a list: pagination and total apply to lists only`, details);
  }
  const p = node.pagination;
  const count = (n: number | null): boolean => n === null || (Number.isInteger(n) && n >= 0);
  if (p && !(p.start !== null && count(p.start) && count(p.limit))) {
    throw validationError(`Invalid pagination of ${name}: start and limit are integers from 0`, details);
  }
  return attr;
}

/** One populated attribute of a document (`owner` set) or component instance, read from `data`. */
function populated(
  ctx: SelectContext,
  attrs: Attributes,
  data: string,
  name: string,
  node: PopulateNode,
  owner: { alias: string; ct: ContentType } | null,
): Frag {
  // a node naming its own status reads its documents (and what they populate) in that version
  const scoped = node.status && node.status !== ctx.scope.status;
  const inner = scoped ? { ...ctx, scope: { ...ctx.scope, status: node.status! } } : ctx;
  return populatedIn(inner, attrs, data, name, node, owner);
}

function populatedIn(
  ctx: SelectContext,
  attrs: Attributes,
  data: string,
  name: string,
  node: PopulateNode,
  owner: { alias: string; ct: ContentType } | null,
): Frag {
  if (name === LOCALIZATIONS && !Object.hasOwn(attrs, name)) return localizations(ctx, owner!, node);
  const attr = attributeNamed(attrs, name, node);
  if (attr.type === 'relation') return relation(ctx, attr, data, name, node, owner);
  if (attr.type === 'media') {
    if (shareable(ctx, owner, node)) {
      const target: SharedTarget = {
        ct: ctx.registry.contentType(FILE_UID),
        key: COLUMNS.id,
        toMany: attr.multiple === true,
      };
      return lookUp(shareRender(ctx, ctx.shared, target, name, node), data, name, target, ctx, node.pagination);
    }
    return media(ctx, attr.multiple === true, data, name, node);
  }
  if (attr.type === 'component') {
    const value = `(${data}->${lit(name)})`;
    if (!attr.repeatable) {
      const one = componentJson(ctx, attr.component, value, node, false);
      return frag(`CASE WHEN jsonb_typeof(${value}) = 'object' THEN ${one.sql} END`, one.bindings);
    }
    const e = ctx.alias();
    const item = componentJson(ctx, attr.component, col(e, 'v'), node, false);
    // filters and sort of the items (GraphQL's; REST refuses them on components), on each instance
    const instance = { kind: 'instance' as const, sql: col(e, 'v'), bindings: [] };
    const where = node.filters
      ? compileFilters(node.filters, {
          registry: ctx.registry,
          uid: attr.component,
          source: instance,
          scope: ctx.scope,
        })
      : undefined;
    const body = frag(
      `FROM jsonb_array_elements(${arrayOf(value)}) WITH ORDINALITY ${quote(e)}("v", "n")` +
        (where ? ` WHERE (${where.sql})` : ''),
      where?.bindings ?? [],
    );
    const order =
      node.sort && node.sort.length > 0
        ? compileInstanceSort(ctx.registry, node.sort, instance, col(e, 'n'), ctx.scope)
        : frag(col(e, 'n'));
    return listJson({ alias: e, columns: col(e, 'v'), item, body, order }, node);
  }
  if (attr.type === 'dynamiczone') {
    const value = `(${data}->${lit(name)})`;
    const e = ctx.alias();
    const shown = node.on ? attr.components.filter((c) => Object.hasOwn(node.on!, c)) : attr.components;
    if (shown.length === 0) {
      return node.total ? frag(`json_build_object('nodes', '[]'::json, 'total', 0)`) : frag(`'[]'::json`);
    }
    const cases = shown.map((uid) => {
      const item = componentJson(ctx, uid, col(e, 'v'), node.on?.[uid] ?? {}, true);
      return frag(`WHEN ${lit(uid)} THEN ${item.sql}`, item.bindings);
    });
    const branches = join(cases, ' ');
    const item = frag(`CASE ${col(e, 'v')}->>'__component' ${branches.sql} END`, branches.bindings);
    const body = frag(
      `FROM jsonb_array_elements(${arrayOf(value)}) WITH ORDINALITY ${quote(e)}("v", "n")` +
        ` WHERE ${col(e, 'v')}->>'__component' IN (${shown.map(lit).join(', ')})`,
    );
    return listJson({ alias: e, columns: col(e, 'v'), item, body, order: frag(col(e, 'n')) }, node);
  }
  throw new Error(`${name} cannot be populated`);
}

/** Filters inside a populate, applied to the related rows under `alias`. */
function conditions(ctx: SelectContext, uid: string, alias: string, node: PopulateNode): Frag {
  if (!node.filters) return frag('TRUE');
  const where = compileFilters(node.filters, { registry: ctx.registry, uid, source: { alias }, scope: ctx.scope });
  return frag(`(${where.sql})`, where.bindings);
}

/** ORDER BY of a populate's own `sort`, else the given default. */
function ordering(ctx: SelectContext, uid: string, alias: string, node: PopulateNode, fallback: string): Frag {
  if (!node.sort || node.sort.length === 0) return frag(fallback);
  return compileSort(ctx.registry, uid, node.sort, alias, ctx.scope);
}

function relation(
  ctx: SelectContext,
  attr: Attribute & { type: 'relation' },
  data: string,
  name: string,
  node: PopulateNode,
  owner: { alias: string; ct: ContentType } | null,
): Frag {
  const target = ctx.registry.contentType(attr.target);
  if (!attr.mappedBy && shareable(ctx, owner, node)) {
    const shared: SharedTarget = { ct: target, key: COLUMNS.documentId, toMany: isToMany(attr) };
    return lookUp(shareRender(ctx, ctx.shared, shared, name, node), data, name, shared, ctx, node.pagination);
  }
  const t = ctx.alias();
  const scope = targetScope(ctx, target, t);
  const where = conditions(ctx, target.uid, t, node);
  const toMany = isToMany(attr);
  let from: string;
  let link: string;
  let natural: string;
  if (attr.mappedBy) {
    const own = ctx.registry.owningSide(attr)!;
    // the owners hold this document's id; containment lets the GIN index find them
    const ownerId = col(owner!.alias, COLUMNS.documentId);
    const held = own.toMany
      ? `jsonb_build_object(${lit(own.attribute)}, jsonb_build_array(${ownerId}))`
      : `jsonb_build_object(${lit(own.attribute)}, ${ownerId})`;
    from = `${quote(target.collectionName)} ${quote(t)}`;
    link = `${col(t, COLUMNS.data)} @> ${held}`;
    const firstId =
      `(SELECT min(${col('f', COLUMNS.id)}) FROM ${quote(target.collectionName)} "f" ` +
      `WHERE ${col('f', COLUMNS.documentId)} = ${col(t, COLUMNS.documentId)})`;
    natural = `${firstId}, ${col(t, COLUMNS.id)}`;
    // a to-many side in the owners' ranks (inverse-order.ts); owners without one first, by age
    const rank = `(${col(t, COLUMNS.data)}->${lit(ORDER_KEY)}->${lit(own.attribute)}->>${ownerId})::float8`;
    if (toMany) natural = `${rank} NULLS FIRST, ${natural}`;
  } else if (toMany) {
    const o = ctx.alias();
    from =
      `jsonb_array_elements_text(${arrayOf(`${data}->${lit(name)}`)}) WITH ORDINALITY ${quote(o)}("v", "n") ` +
      `JOIN ${quote(target.collectionName)} ${quote(t)} ON ${col(t, COLUMNS.documentId)} = ${col(o, 'v')}`;
    link = 'TRUE';
    natural = col(o, 'n');
  } else {
    from = `${quote(target.collectionName)} ${quote(t)}`;
    link = `${col(t, COLUMNS.documentId)} = ${data}->>${lit(name)}`;
    natural = col(t, COLUMNS.id);
  }
  const filter = join([scope, where], ' AND ');
  if (node.count) {
    return frag(
      `json_build_object('count', (SELECT count(*) FROM ${from} WHERE ${link} AND ${filter.sql}))`,
      filter.bindings,
    );
  }
  const doc = documentJson(ctx, target, t, node);
  const order = ordering(ctx, target.uid, t, node, natural);
  const body = `FROM ${from} WHERE ${link} AND ${filter.sql}`;
  if (!toMany)
    return frag(`(SELECT ${doc.sql} ${body} ORDER BY ${order.sql} LIMIT 1)`, [
      ...doc.bindings,
      ...filter.bindings,
      ...order.bindings,
    ]);
  return listJson({ alias: t, columns: `${quote(t)}.*`, item: doc, body: frag(body, filter.bindings), order }, node);
}

function media(ctx: SelectContext, multiple: boolean, data: string, name: string, node: PopulateNode): Frag {
  const files = ctx.registry.contentType(FILE_UID);
  const f = ctx.alias();
  const doc = documentJson(ctx, files, f, node);
  if (!multiple) {
    return frag(
      `(SELECT ${doc.sql} FROM ${quote(files.collectionName)} ${quote(f)} ` +
        `WHERE jsonb_typeof(${data}->${lit(name)}) = 'number' ` +
        `AND ${col(f, COLUMNS.id)} = (${data}->>${lit(name)})::bigint)`,
      doc.bindings,
    );
  }
  const o = ctx.alias();
  const where = conditions(ctx, FILE_UID, f, node);
  const body = frag(
    `FROM jsonb_array_elements_text(${arrayOf(`${data}->${lit(name)}`)}) WITH ORDINALITY ${quote(o)}("v", "n")` +
      ` JOIN ${quote(files.collectionName)} ${quote(f)} ON ${col(f, COLUMNS.id)} = ${col(o, 'v')}::bigint` +
      ` WHERE ${where.sql}`,
    where.bindings,
  );
  const order = ordering(ctx, FILE_UID, f, node, col(o, 'n'));
  return listJson({ alias: f, columns: `${quote(f)}.*`, item: doc, body, order }, node);
}

/** The same document in its other locales, in the read's status. */
function localizations(ctx: SelectContext, owner: { alias: string; ct: ContentType }, node: PopulateNode): Frag {
  const ct = owner.ct;
  const t = ctx.alias();
  const status = scopeCondition(ct, t, { status: ctx.scope.status, locale: '*' });
  const doc = documentJson(ctx, ct, t, node);
  const body = frag(
    `FROM ${quote(ct.collectionName)} ${quote(t)} ` +
      `WHERE ${col(t, COLUMNS.documentId)} = ${col(owner.alias, COLUMNS.documentId)}` +
      ` AND ${col(t, COLUMNS.locale)} IS DISTINCT FROM ${col(owner.alias, COLUMNS.locale)} AND ${status.sql}`,
    status.bindings,
  );
  return listJson({ alias: t, columns: `${quote(t)}.*`, item: doc, body, order: frag(col(t, COLUMNS.id)) }, node);
}
