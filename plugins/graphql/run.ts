/**
 * A planned root field read through the document service (so draft & publish, i18n and every
 * document middleware apply, as for REST) in one statement, and its object put together as JSON
 * text: a list's documents are spliced in as PostgreSQL built them, never parsed.
 */
import { type App, type Doc, type DocumentApi, resolveFilters } from '../../core/index.ts';
import { byDocumentId } from './plan/args.ts';
import { type PaginationKey, paginationValues, type RootPlan } from './plan/root.ts';

/** What the read returned: the text of each `data` key's value, and the total when counted. */
interface Read {
  data: string[];
  total: number | null;
}

/** With several `data` keys, each document is an object per key: one list (or value) per key. */
function split(plan: RootPlan, value: Doc[] | Doc | null): string[] {
  if (plan.dataKeys.length <= 1) return [JSON.stringify(value)];
  return plan.dataKeys.map((k) =>
    JSON.stringify(Array.isArray(value) ? value.map((d) => d[k]) : value === null ? null : value[k]),
  );
}

async function readList(docs: DocumentApi, plan: RootPlan): Promise<Read> {
  const { filters, sort, status, locale, layout } = plan;
  const window = plan.window!;
  if (plan.dataKeys.length === 0) {
    // only `meta`: a count, or nothing at all
    return { data: [], total: plan.count ? await docs.count({ filters, status, locale }) : null };
  }
  const pagination = { start: window.start, limit: window.limit, style: 'offset' as const, withCount: plan.count };
  const page = await docs.findPage({ filters, sort, status, locale, layout, pagination, json: true });
  const json = page.json ?? '[]';
  const data = plan.dataKeys.length === 1 ? [json] : split(plan, JSON.parse(json) as Doc[]);
  return { data, total: plan.count ? page.total : null };
}

async function readOne(app: App, docs: DocumentApi, plan: RootPlan): Promise<Read> {
  if (plan.dataKeys.length === 0) return { data: [], total: null };
  const { status, locale, layout } = plan;
  const ct = app.registry.contentType(plan.root.uid);
  let doc: Doc | null = null;
  if (plan.root.kind === 'single') {
    doc = await docs.findFirst({ status, locale, layout });
  } else if (plan.id !== null && plan.id !== undefined) {
    if (plan.byDocumentId || byDocumentId(ct)) {
      doc = await docs.findOne({ documentId: plan.id, status, locale, layout });
    } else if (/^\d{1,18}$/.test(plan.id)) {
      // plugin types are addressed by their row id, as their REST routes do
      const filters = resolveFilters(app.registry, ct.uid, { id: { $eq: Number(plan.id) } });
      doc = await docs.findFirst({ filters, status, locale, layout });
    }
  }
  return { data: split(plan, doc), total: null };
}

/** `pageInfo` / `meta.pagination`'s selected keys. */
function paginationObject(plan: RootPlan, total: number | null, keys: PaginationKey[]): Record<string, unknown> {
  const values = paginationValues(plan.window!, total);
  return Object.fromEntries(keys.map((k) => [k.key, k.value === '__typename' ? 'Pagination' : values[k.value]]));
}

/** The root field's value as JSON text. */
export async function readRoot(app: App, plan: RootPlan): Promise<string> {
  const docs = app.documents(plan.root.uid);
  const list = plan.root.kind === 'find' || plan.root.kind === 'connection';
  const read = list ? await readList(docs, plan) : await readOne(app, docs, plan);
  // the flat shape's list or document: the read itself
  if (plan.bare) return read.data[0] ?? 'null';
  let d = 0;
  const parts = plan.parts.map((part) => {
    const key = JSON.stringify(part.key);
    if (part.kind === 'typename') return `${key}:${JSON.stringify(part.value)}`;
    if (part.kind === 'data') return `${key}:${read.data[d++]}`;
    if (part.kind === 'pageInfo') return `${key}:${JSON.stringify(paginationObject(plan, read.total, part.keys))}`;
    const meta: Record<string, unknown> = {};
    for (const p of part.parts) {
      meta[p.key] = p.kind === 'typename' ? 'ResponseCollectionMeta' : paginationObject(plan, read.total, p.keys);
    }
    return `${key}:${JSON.stringify(meta)}`;
  });
  return `{${parts.join(',')}}`;
}
