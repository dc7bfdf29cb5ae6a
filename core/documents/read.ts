import type { Knex } from 'knex';
import type { Registry } from '../content-types/registry.ts';
import type { ContentType } from '../content-types/types.ts';
import { countedRows } from '../query/table-sql.ts';
import { countedTotal } from '../query/value-counts-total.ts';
import { applyFilters, cheapTwice, readsOnlyItsRow } from '../query/filters.ts';
import { applySort, sortKeys } from '../query/sort.ts';
import { searchCondition } from '../query/search.ts';
import { inScope } from './rows.ts';
import { scopedRows, type Scope } from '../query/scope-sql.ts';
import { documentJson, type SelectContext, type SharedRenders } from '../query/populate-sql.ts';
import { documentText, PARTS, partNames, RENDER_VERSION, RENDERED, showsRender } from '../query/render-sql.ts';
import { COLUMNS, fragment as frag, qualified, quote, ROW_COLUMNS, type SqlFragment as Frag } from '../query/sql.ts';
import type { Doc } from './serialize.ts';
import type { ReadParams } from './types.ts';
import { filteredOrSearched, type ReadStatements } from './read-statements.ts';

export interface ReadRequest {
  db: Knex;
  registry: Registry;
  ct: ContentType;
  params: ReadParams;
  scope: Scope;
  /** one document */
  documentId?: string;
  limit?: number | null;
  offset?: number;
  /** also count every matching document (for pagination meta) */
  count?: boolean;
  /** answer the documents as JSON text (not parsed) */
  json?: boolean;
  /** the app's statements kept by shape (read-statements.ts); without it, each read is built */
  statements?: ReadStatements;
  /** the app's render versions (render-sql.ts `createRenderVersions`) */
  renderVersion?: (ct: ContentType) => number;
  /** the table is large (read-statements.ts): set by `readDocuments` */
  large?: boolean;
}

/**
 * Whether a list with a total evaluates its filter once, into a CTE of the matching ids with their
 * sort keys (`pageOfMatches`), rather than once for the page (walking the sort's index) and once
 * for the total (`twiceOverLinks` says which of those match owning relations in the link tables).
 */
function evaluatedOnce(req: ReadRequest): boolean {
  const { filters, search } = req.params;
  if (req.count !== true) return false;
  if (search !== undefined) return true;
  return filters !== undefined && !readsOnlyItsRow(filters) && !twiceOverLinks(req);
}

/**
 * A list with a total, on a large table, filtered through owning relations to their targets' own
 * fields (`cheapTwice`): evaluated twice, its relations matched in the link tables (links-sql.ts).
 * Elsewhere a filter through relations is evaluated once, as containment in `data`. Measured, the
 * statement with its total: at 100k articles, `tags.name $in [2 tags] & views $gte median` sorted
 * by title (8.6k matches) took 54 ms as the CTE over `data`'s GIN index, 23–30 ms twice over the
 * links, and 216 ms as a CTE over the links (its sort keys read the 45k documents of the `views`
 * range: links cannot join a bitmap of the documents); at 1k, `category $eq & tags.name $eq` (31
 * matches) 0.8–1.5 ms as the CTE over the GIN index, 1.5–2.2 twice over the links.
 */
function twiceOverLinks(req: ReadRequest): boolean {
  const { filters, search } = req.params;
  return (
    req.large === true && req.count === true && search === undefined && filters !== undefined && cheapTwice(filters)
  );
}

/** Rows of the read, filtered, under `alias` (counts use it too). */
export function matching(req: ReadRequest, alias: string): Knex.QueryBuilder {
  const q = req.db({ [alias]: req.ct.collectionName });
  inScope(q, req.ct, req.scope, alias);
  if (req.documentId !== undefined) q.where(`${alias}.document_id`, req.documentId);
  if (req.params.filters)
    applyFilters(q, req.registry, req.ct.uid, req.params.filters, alias, req.scope, twiceOverLinks(req));
  if (req.params.search !== undefined) {
    const cond = searchCondition(req.ct, alias, req.params.search);
    q.whereRaw(cond.sql, cond.bindings);
  }
  return q;
}

/**
 * One statement for a whole read: the page of documents, each built as JSON by PostgreSQL
 * with its populate tree, aggregated into one array (in the page's order), and the total
 * count when asked. No statement per row, nor per populated relation.
 */
export async function readDocuments(req: ReadRequest): Promise<{ docs: Doc[]; total: number | null; json?: string }> {
  const large = req.statements?.large(req.ct.uid) ?? false;
  const build = (documentId: string | undefined) => statementOf({ ...req, documentId, large }).toSQL();
  const { sql, bindings } = req.statements
    ? req.statements.compile({ ...req, uid: req.ct.uid, large }, build)
    : build(req.documentId);
  // run as a named prepared statement: the pool's connections name every read (database/prepared.ts)
  const {
    rows: [row],
  } = (await req.db.raw(sql, bindings as Knex.Value[])) as {
    rows: Array<{ data: Doc[] | string; total?: number | string }>;
  };
  const total = req.count ? Number(row.total) : null;
  // how large the table is, at least: whether a repeated read gets its values written in
  if (total !== null) req.statements?.answered(req.ct.uid, total);
  return typeof row.data === 'string' ? { docs: [], total, json: row.data } : { docs: row.data, total };
}

/** The statement of a read (`readDocuments`). */
function statementOf(req: ReadRequest): Knex.Raw {
  let n = 0;
  // related documents are worth rendering once per read only when several page documents may share them
  // (not in a read of every locale: a shared render cannot follow each row's own locale)
  const single = req.limit === 1 || req.documentId !== undefined || req.scope.locale === '*';
  const { fields, populate, layout } = req.params;
  // private and password attributes stay in the database unless the caller asked for raw rows
  const redact = req.params.raw !== true;
  // a text answer of the kept renders splices what each document populates as text (render-sql.ts)
  const rendered = req.json === true && showsRender({ redact }, { fields, layout });
  const shared: SharedRenders | undefined = single
    ? undefined
    : { root: 'r', page: '"v:page"', ctes: [], ...(rendered && { asText: documentText }) };
  const ctx: SelectContext = {
    registry: req.registry,
    scope: req.scope,
    redact,
    alias: () => `t${++n}`,
    shared,
    renderVersion: req.renderVersion,
  };
  // as text, the documents are joined as PostgreSQL has them (the kept renders, render-sql.ts); as
  // json, pg would parse them
  const doc = (req.json ? documentText : documentJson)(ctx, req.ct, 'r', { fields, populate, layout });
  const ctes: Frag[] = [];
  const once = evaluatedOnce(req);
  // a text answer of the kept renders reads `data` only for what it populates
  const needsData = !rendered || Object.keys(populate ?? {}).length > 0;
  // and its components' and zones' kept renders, when it populates any (render-sql.ts `PARTS`)
  const kept = rendered ? partNames(req.ct) : [];
  const parts = Object.keys(populate ?? {}).some((key) => kept.includes(key));
  const columns = [...ROW_COLUMNS, ...(rendered ? [RENDERED, RENDER_VERSION] : []), ...(parts ? [PARTS] : [])];
  const ordered = (once ? pageOfMatches(req, ctes) : pageWalked(req)).select(columns.map((c) => `r0.${c}`));
  // Then their JSON. `data` is detoasted (`data || '{}'`) once per page row, after the sort and
  // limit: a document over 8 kB is stored compressed (database/sync.ts) and every `data->'key'`
  // would decompress it again, while doing it before the limit would copy every matching row's
  // document. OFFSET 0 keeps PostgreSQL from inlining the expression into each `data->'key'`.
  // (a read of the kept renders alone reads `data` only for a row without one: not detoasted)
  const detoasted = columns.map((c) =>
    c === COLUMNS.data && needsData ? `${qualified('p', c)} || '{}'::jsonb AS ${quote(c)}` : qualified('p', c),
  );
  const rows = frag(`SELECT ${detoasted.join(', ')} FROM (?) "p" OFFSET 0`, [ordered as unknown as Knex.Value]);
  let from: Frag;
  if (shared && shared.ctes.length > 0) {
    // the page first (the shared renders read which documents it references), then the renders
    ctes.push(frag(`${shared.page} AS MATERIALIZED (${rows.sql})`, rows.bindings), ...shared.ctes);
    from = frag(shared.page);
  } else {
    from = frag(`(${rows.sql})`, rows.bindings);
  }
  const count = !req.count ? null : once ? frag(`SELECT count(*) FROM ${MATCH}`) : totalOf(req);
  // the ordered page feeds the aggregate in its order
  const aggregate = req.json
    ? `'[' || COALESCE((SELECT string_agg(${doc.sql}, ',') FROM ${from.sql} "r"), '') || ']'`
    : `COALESCE((SELECT json_agg(${doc.sql}) FROM ${from.sql} "r"), '[]'::json)`;
  const withCtes = ctes.length > 0 ? `WITH ${ctes.map((c) => c.sql).join(', ')} ` : '';
  const totalColumn = count ? `, (${count.sql}) AS total` : '';
  return req.db.raw(`${withCtes}SELECT ${aggregate} AS data${totalColumn}`, [
    ...ctes.flatMap((c) => c.bindings),
    ...doc.bindings,
    ...from.bindings,
    ...(count?.bindings ?? []),
  ]);
}

/**
 * The page's rows (`r0`) of a read whose filter tests only the row's own fields, or of no filter:
 * evaluated in the page's query, which walks a read index in the sort's order and stops at the
 * page's end (database/sync.ts), where a cut from every match (`pageOfMatches`) would read them
 * all; the total evaluates the filter again, from its own index or the value counts.
 */
function pageWalked(req: ReadRequest): Knex.QueryBuilder {
  if (req.offset && !filteredOrSearched(req.params)) return pageSkipped(req);
  const page = matching(req, 'r0');
  applySort(page, req.registry, req.ct.uid, req.params.sort ?? [], 'r0', req.scope);
  if (req.offset) page.offset(req.offset);
  if (req.limit !== undefined && req.limit !== null) page.limit(req.limit, { skipBinding: plansOnce(req) });
  return page;
}

/**
 * The page's rows (`r0`) of an unfiltered read past its first row: the rows skipped are only
 * counted, so the page's ids are found first, with their sort keys, walking the sort's read index
 * (which holds the scope, the key and the id: an index-only scan), and only the page's rows are
 * read. Walking the rows themselves read every skipped row: page 36 of 25 sorted by title (900
 * rows walked) took 0.84 ms, this way 0.45 (the mixed workload's list pages go that deep). A
 * filtered read visits each skipped row for its filter anyway: there the extra join and the sort
 * of the page's rows (which PostgreSQL does not see come in order) only cost (0.35 → 0.50 ms).
 */
function pageSkipped(req: ReadRequest): Knex.QueryBuilder {
  const { rows, order } = keyedMatches(req, 'k');
  // ordered by the keys' output names: their expressions (and bindings) written once
  const cut = rows.orderByRaw(order()).offset(req.offset ?? 0);
  if (req.limit !== undefined && req.limit !== null) cut.limit(req.limit, { skipBinding: plansOnce(req) });
  return rowsOfCut(req, cut.as('v:cut'), order);
}

/**
 * The read's matching rows under `alias`: their ids, and their sort keys as `s0`, `s1`, …; and
 * the keys' ORDER BY, on those output names or on a table (`order('v:cut')`) that carries them.
 */
function keyedMatches(req: ReadRequest, alias: string): { rows: Knex.QueryBuilder; order: (table?: string) => string } {
  const keys = sortKeys(req.registry, req.ct.uid, req.params.sort ?? [], alias, req.scope);
  const carried = keys.map((k, i) => req.db.raw(`${k.sql} AS ${quote(`s${i}`)}`, k.bindings));
  const order = (table?: string): string =>
    keys.map((k, i) => `${table ? qualified(table, `s${i}`) : quote(`s${i}`)} ${k.order}`).join(', ');
  return { rows: matching(req, alias).select(`${alias}.${COLUMNS.id}`, ...carried), order };
}

/** The page's rows (`r0`): those of `cut` (ids and sort keys, as "v:cut"), in its keys' order. */
const rowsOfCut = (req: ReadRequest, cut: Knex.QueryBuilder | Knex.Raw, order: (table: string) => string) =>
  req.db({ r0: req.ct.collectionName }).join(cut, `r0.${COLUMNS.id}`, `v:cut.${COLUMNS.id}`).orderByRaw(order('v:cut'));

/**
 * The page's rows (`r0`) of a read with a total whose filter reaches other rows or searches: the
 * matching ids once, in a CTE pushed on `ctes` that the total counts, each with its sort keys
 * (`s0`, `s1`, …) read from the row the filter visits anyway; the page is cut from the CTE by them
 * and only its rows are read again. Sorting the ids by their rows looked up again cost 24 of a
 * filter through a relation's 63 ms at 100k articles (8.6k matches); walking the sort's index
 * instead, as `pageWalked` does, would evaluate such a filter twice.
 */
function pageOfMatches(req: ReadRequest, ctes: Frag[]): Knex.QueryBuilder {
  const { rows, order } = keyedMatches(req, 'm');
  ctes.push(frag(`${MATCH} AS MATERIALIZED (?)`, [rows as unknown as Knex.Value]));
  const limited = req.limit !== undefined && req.limit !== null;
  const page = req.db
    .raw(`SELECT * FROM ${MATCH} ORDER BY ${order()}${limited ? ' LIMIT ?' : ''}${req.offset ? ' OFFSET ?' : ''}`, [
      ...(limited ? [req.limit] : []),
      ...(req.offset ? [req.offset] : []),
    ] as Knex.Value[])
    .wrap('(', ') AS "v:cut"');
  return rowsOfCut(req, page, order);
}

/**
 * Whether a read's page size is written into its SQL rather than bound. A named statement is planned
 * anew on every run unless PostgreSQL finds its generic plan no worse than the custom ones, and a
 * bound LIMIT makes the generic plan cost a tenth of the table: so every list was planned on every
 * request (0.6 ms of a 25-article `populate=*` read's 2.5). With the size written in, an unfiltered
 * read's generic plan is the custom one and is kept: 2.5 → 1.7 ms for that read, 0.37 → 0.31 for a
 * plain list. A filtered or searched read keeps it bound, so that its plan is still made for its
 * values (a rare value wants the filter's index, a common one the sort's). Sizes are a few integers
 * (`maxLimit` bounds them), so they add few statement names; an offset stays bound, as deep pages
 * would each add one. Of a large table, such a read that comes again has all its values written
 * in instead, and keeps the plan made for them (read-statements.ts).
 */
const plansOnce = (req: ReadRequest): boolean =>
  !filteredOrSearched(req.params) && typeof req.limit === 'number' && Number.isSafeInteger(req.limit) && req.limit >= 0;

/**
 * The total of a read: of an unfiltered list, the sum of its scope's row counts (kept by
 * triggers, table-sql.ts `ROW_COUNTS`; exact in the statement's snapshot) rather than a scan of
 * every matching row; of a list filtered by one condition on a counted attribute, a sum of its
 * value counts (value-counts-sql.ts); else the matching rows counted.
 */
function totalOf(req: ReadRequest): Frag {
  const { filters, search } = req.params;
  const { published, locale } = scopedRows(req.ct, req.scope);
  if (filters !== undefined || search !== undefined || req.documentId !== undefined) {
    const rows = frag('?', [matching(req, 'c').count('*') as unknown as Knex.Value]);
    const counted =
      filters !== undefined && search === undefined && req.documentId === undefined
        ? countedTotal(req.ct.collectionName, filters, published, locale, rows)
        : undefined;
    return counted ?? rows;
  }
  return countedRows(req.ct.collectionName, published, locale);
}

/** the ids matching a filtered read (a quoted name no collectionName can take) */
const MATCH = '"v:match"';
