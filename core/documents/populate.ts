import type { Knex } from 'knex';
import type { Registry } from '../content-types/registry.ts';
import { FILE_UID, isToMany, type Attributes, type MediaAttribute, type RelationAttribute } from '../content-types/types.ts';
import { LOCALIZATIONS, type PopulateTree } from '../query/types.ts';
import { inScope, ROW_COLUMNS, rowsByDocumentId, type Row, type Scope } from './rows.ts';
import { toComponent, toDocument, type Doc } from './serialize.ts';

/** Something populate can fill: the stored data of a document or component instance, and its output. */
export interface PopulateNodeRef {
  attributes: Attributes;
  raw: Record<string, unknown>;
  out: Doc;
  /** documentId of the document the node is, for inverse relations (components have none) */
  documentId?: string;
  /** the locale of the document's row, for `localizations` */
  locale?: string | null;
  /** the content-type of a document node (components have none) */
  uid?: string;
}

interface Ctx {
  db: Knex;
  registry: Registry;
  scope: Scope;
}


const asList = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : []);

/**
 * Fill `nodes` (all of one schema) with what `tree` asks for. Each populated relation or
 * media attribute costs one statement for all nodes together, never one per node, so a
 * page of 25 or 100 documents costs the same number of statements.
 */
export async function populate(ctx: Ctx, nodes: PopulateNodeRef[], tree: PopulateTree): Promise<void> {
  if (nodes.length === 0) return;
  const { attributes } = nodes[0];
  for (const [name, node] of Object.entries(tree)) {
    if (name === LOCALIZATIONS && !Object.hasOwn(attributes, name)) {
      const children = await localizations(ctx, nodes);
      if (node.populate) await populate(ctx, children, node.populate);
      continue;
    }
    const attr = attributes[name];
    if (attr.type === 'relation') {
      const children = attr.mappedBy ? await inverse(ctx, nodes, name, attr) : await owning(ctx, nodes, name, attr);
      if (node.populate) await populate(ctx, children, node.populate);
    } else if (attr.type === 'media') {
      await media(ctx, nodes, name, attr);
    } else if (attr.type === 'component') {
      const schema = ctx.registry.component(attr.component);
      const children: PopulateNodeRef[] = [];
      for (const n of nodes) {
        const make = (raw: Record<string, unknown>): Doc => {
          const out = toComponent(schema.attributes, raw);
          children.push({ attributes: schema.attributes, raw, out });
          return out;
        };
        const v = n.raw[name];
        n.out[name] = attr.repeatable
          ? (Array.isArray(v) ? v : []).map((item) => make(item as Record<string, unknown>))
          : v && typeof v === 'object' ? make(v as Record<string, unknown>) : null;
      }
      if (node.populate) await populate(ctx, children, node.populate);
    } else if (attr.type === 'dynamiczone') {
      const byComponent = new Map<string, PopulateNodeRef[]>();
      for (const n of nodes) {
        const items = Array.isArray(n.raw[name]) ? (n.raw[name] as Array<Record<string, unknown>>) : [];
        n.out[name] = items
          // with `on`, a component not listed returns no data (brief, populate rule 4)
          .filter((item) => !node.on || Object.hasOwn(node.on, item.__component as string))
          .map((item) => {
            const uid = item.__component as string;
            const schema = ctx.registry.component(uid);
            const out = toComponent(schema.attributes, item);
            if (!byComponent.has(uid)) byComponent.set(uid, []);
            byComponent.get(uid)!.push({ attributes: schema.attributes, raw: item, out });
            return out;
          });
      }
      for (const [uid, children] of byComponent) {
        const inner = node.on?.[uid]?.populate;
        if (inner) await populate(ctx, children, inner);
      }
    }
  }
}

/** Owning side: the documentIds are in the node's data; fetch all targets at once. */
async function owning(ctx: Ctx, nodes: PopulateNodeRef[], name: string, attr: RelationAttribute): Promise<PopulateNodeRef[]> {
  const target = ctx.registry.contentType(attr.target);
  const ids = [...new Set(nodes.flatMap((n) => asList(n.raw[name])))];
  const rows = await rowsByDocumentId(ctx.db, target, ids, ctx.scope);
  const made = new Map<string, PopulateNodeRef>();
  const doc = (id: string): Doc | undefined => {
    const row = rows.get(id);
    if (!row) return undefined; // deleted or out of scope: a dangling id simply resolves to nothing
    if (!made.has(id)) made.set(id, { attributes: target.attributes, raw: row.data, out: toDocument(target, row), documentId: id, locale: row.locale, uid: target.uid });
    return made.get(id)!.out;
  };
  for (const n of nodes) {
    const docs = asList(n.raw[name]).map(doc).filter((d): d is Doc => d !== undefined);
    n.out[name] = isToMany(attr) ? docs : (docs[0] ?? null);
  }
  return [...made.values()];
}

/** Inverse side: computed from the owners' data by containment, ordered by the owners' ids. */
async function inverse(ctx: Ctx, nodes: PopulateNodeRef[], name: string, attr: RelationAttribute): Promise<PopulateNodeRef[]> {
  const owner = ctx.registry.owningSide(attr)!;
  const target = ctx.registry.contentType(owner.uid);
  const ids = nodes.map((n) => n.documentId).filter((id): id is string => !!id);
  // owners in the order their documents were created: a document's first row (its draft) keeps
  // its id, while publishing recreates the published row
  const q = ctx.db({ o: target.collectionName }).select(ROW_COLUMNS.map((c) => `o.${c}`))
    .orderByRaw('(SELECT min(f.id) FROM ?? f WHERE f.document_id = o.document_id)', [target.collectionName]);
  if (owner.toMany) q.whereRaw('o.data -> ? \\?| ?::text[]', [owner.attribute, ids]);
  else q.whereRaw('o.data ->> ? = ANY(?::text[])', [owner.attribute, ids]);
  const rows = ids.length ? ((await inScope(q, target, ctx.scope, 'o')) as Row[]) : [];
  const byParent = new Map<string, PopulateNodeRef[]>();
  const made = new Map<string, PopulateNodeRef>();
  for (const row of rows) {
    if (made.has(row.document_id)) continue;
    const ref = { attributes: target.attributes, raw: row.data, out: toDocument(target, row), documentId: row.document_id, locale: row.locale, uid: target.uid };
    made.set(row.document_id, ref);
    for (const parent of asList(row.data[owner.attribute])) {
      if (!byParent.has(parent)) byParent.set(parent, []);
      byParent.get(parent)!.push(ref);
    }
  }
  for (const n of nodes) {
    const docs = (byParent.get(n.documentId ?? '') ?? []).map((r) => r.out);
    n.out[name] = isToMany(attr) ? docs : (docs[0] ?? null);
  }
  return [...made.values()];
}

async function media(ctx: Ctx, nodes: PopulateNodeRef[], name: string, attr: MediaAttribute): Promise<void> {
  const ids = [...new Set(nodes.flatMap((n) => (Array.isArray(n.raw[name]) ? n.raw[name] : n.raw[name] ? [n.raw[name]] : []) as number[]))];
  const files = ctx.registry.contentType(FILE_UID);
  const rows: Row[] = ids.length ? await ctx.db(files.collectionName).select(ROW_COLUMNS).whereIn('id', ids) : [];
  const byId = new Map(rows.map((r) => [r.id, toDocument(files, r)]));
  for (const n of nodes) {
    const v = n.raw[name];
    const docs = (Array.isArray(v) ? v : v ? [v] : []).map((id) => byId.get(id as number)).filter((d): d is Doc => !!d);
    n.out[name] = attr.multiple ? docs : (docs[0] ?? null);
  }
}

/** The other locales of each document, in the same status: one statement for all nodes. */
async function localizations(ctx: Ctx, nodes: PopulateNodeRef[]): Promise<PopulateNodeRef[]> {
  const uid = nodes[0].uid;
  if (!uid) return [];
  const ct = ctx.registry.contentType(uid);
  const ids = [...new Set(nodes.map((n) => n.documentId).filter((id): id is string => !!id))];
  const q = ctx.db(ct.collectionName).select(ROW_COLUMNS).whereIn('document_id', ids).orderBy('id');
  const rows: Row[] = ids.length ? await inScope(q, ct, { status: ctx.scope.status, locale: '*' }) : [];
  const children: PopulateNodeRef[] = [];
  for (const n of nodes) {
    n.out[LOCALIZATIONS] = rows
      .filter((r) => r.document_id === n.documentId && r.locale !== n.locale)
      .map((r) => {
        const out = toDocument(ct, r);
        children.push({ attributes: ct.attributes, raw: r.data, out, documentId: r.document_id, locale: r.locale, uid });
        return out;
      });
  }
  return children;
}
