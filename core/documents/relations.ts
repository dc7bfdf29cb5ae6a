import type { Knex } from 'knex';
import { fieldErrors, type FieldIssue } from '../errors.ts';
import { allowedTypesIssue } from '../content-types/media.ts';
import type { Registry } from '../content-types/registry.ts';
import { FILE_UID, isToMany, type RelationAttribute } from '../content-types/types.ts';
import { whereLocale } from './rows.ts';
import type { Touch } from './types.ts';
import type { PendingMedia, PendingRelation } from './input.ts';
import { applyRelationInput, applyToOneInput, referencedIds, type RelationInput } from './relation-input.ts';
import { keepsInverseOrder, rankedOwners, renumberOwners, type OwnedChange } from './inverse-order.ts';
import {
  documentIdValue,
  holds,
  holdsAny,
  JSON_NULL,
  lacks,
  listWith,
  listWithout,
  setAttribute,
  withoutRank,
} from '../query/jsonb-writes.ts';
import { COLUMNS, type SqlFragment } from '../query/sql.ts';
import { attributeText } from '../query/table-sql.ts';
import type { Row } from './rows.ts';

/** A write to the inverse (`mappedBy`) side, applied to the owners once the document exists. */
export interface InverseWrite {
  path: string[];
  attr: RelationAttribute;
  input: RelationInput;
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : []);

/**
 * Relations are localized: a write in one locale only touches the other documents' rows in
 * that locale (when their type is localized at all).
 */
const sameLocale = (q: Knex.QueryBuilder, registry: Registry, uid: string, locale: string | null): Knex.QueryBuilder =>
  whereLocale(q, registry.contentType(uid), locale);

/** A fragment as a knex raw value, for an update's `data`. */
const raw = (db: Knex, f: SqlFragment): Knex.Raw => db.raw(f.sql, f.bindings);

const positionIssue = (path: string[], message: string): FieldIssue => ({
  path,
  message: `${path.join('.')} ${message}`,
  name: 'ValidationError',
  value: null,
});

/** What a write's relations leave to do once its row is written. */
export interface ResolvedRelations {
  /** writes through inverse sides, for `applyInverseWrites` */
  inverse: InverseWrite[];
  /** owning relations whose inverse side keeps an order, for `rankOwner` */
  owned: OwnedChange[];
}

/**
 * Check that every referenced document and file exists (one statement per target type) and
 * keep it from being deleted before the write commits, then compute the stored value of every
 * owning relation. Inverse relations are not stored on this side: they are returned for
 * `applyInverseWrites`.
 */
export async function resolveRelations(
  db: Knex,
  registry: Registry,
  relations: PendingRelation[],
  media: PendingMedia[],
): Promise<ResolvedRelations> {
  const issues: FieldIssue[] = [];
  const wanted = new Map<string, Set<string>>();
  for (const r of relations) {
    const set = wanted.get(r.attr.target) ?? new Set<string>();
    for (const id of referencedIds(r.input)) set.add(id);
    wanted.set(r.attr.target, set);
  }
  const found = new Map<string, Set<string>>();
  for (const [uid, ids] of wanted) {
    if (ids.size === 0) continue;
    // KEY SHARE until the write commits: a concurrent delete of a target waits for it (and then
    // removes the new reference), or went first and the target is not found; an edit of the
    // target (NO KEY UPDATE) does not wait. Ordered by id, as every locker of several rows.
    const rows = await db(registry.contentType(uid).collectionName)
      .select(COLUMNS.documentId)
      .whereIn(COLUMNS.documentId, [...ids])
      .orderBy(COLUMNS.id)
      .forKeyShare();
    found.set(uid, new Set(rows.map((r: Pick<Row, 'document_id'>) => r.document_id)));
  }

  const inverse: InverseWrite[] = [];
  const owned: OwnedChange[] = [];
  for (const r of relations) {
    const missing = referencedIds(r.input).filter((id) => !found.get(r.attr.target)?.has(id));
    if (missing.length > 0) {
      issues.push({
        path: r.path,
        message: `Document with id "${missing[0]}", locale "null" not found`,
        name: 'ValidationError',
        value: missing[0],
      });
      continue;
    }
    if (r.attr.mappedBy) {
      delete r.holder[r.key];
      inverse.push({ path: r.path, attr: r.attr, input: r.input });
      continue;
    }
    const previous = asList(r.current);
    if (!isToMany(r.attr)) {
      r.holder[r.key] = applyToOneInput(previous.at(-1) ?? null, r.input);
    } else {
      const next = applyRelationInput(previous, r.input);
      if (typeof next === 'string') issues.push(positionIssue(r.path, next));
      else r.holder[r.key] = next;
    }
    if (keepsInverseOrder(registry, r.attr)) {
      owned.push({ name: r.key, attr: r.attr, previous, next: asList(r.holder[r.key]) });
    }
  }

  if (media.length > 0) {
    const ids = [...new Set(media.flatMap((m) => m.ids))];
    const files = registry.hasContentType(FILE_UID) ? registry.contentType(FILE_UID).collectionName : null;
    const rows: Array<{ id: number; mime: string | null }> =
      files && ids.length
        ? await db(files)
            .select(COLUMNS.id, raw(db, attributeText('mime')))
            .whereIn(COLUMNS.id, ids)
            .orderBy(COLUMNS.id)
            .forKeyShare()
        : [];
    const mimeOf = new Map(rows.map((r) => [r.id, r.mime ?? '']));
    for (const m of media) {
      const missing = m.ids.find((id) => !mimeOf.has(id));
      if (missing !== undefined) {
        issues.push({
          path: m.path,
          message: `File with id "${missing}" not found`,
          name: 'ValidationError',
          value: missing,
        });
        continue;
      }
      const refused = allowedTypesIssue(
        m.attr,
        m.ids.map((id) => mimeOf.get(id)!),
        m.path,
      );
      if (refused) issues.push(refused);
    }
  }
  if (issues.length > 0) throw fieldErrors(issues);
  return { inverse, owned };
}

/**
 * A bidirectional oneToOne / oneToMany owner holds each target at most once across all its
 * documents: connecting a target to this document takes it away from any other one.
 */
export async function enforceExclusiveTargets(
  db: Knex,
  touch: Touch,
  registry: Registry,
  uid: string,
  documentId: string,
  data: Record<string, unknown>,
  written: ReadonlySet<string>,
  locale: string | null,
): Promise<void> {
  const ct = registry.contentType(uid);
  for (const [name, attr] of Object.entries(ct.attributes)) {
    // a relation this write did not touch cannot have gained a target
    if (!written.has(name) || attr.type !== 'relation' || !attr.inversedBy) continue;
    if (attr.relation !== 'oneToOne' && attr.relation !== 'oneToMany') continue;
    const targets = asList(data[name]);
    if (targets.length === 0) continue;
    const q = sameLocale(db(ct.collectionName).whereNot(COLUMNS.documentId, documentId), registry, uid, locale);
    const toMany = attr.relation === 'oneToMany';
    const held = holdsAny(name, targets, toMany);
    const value = toMany ? listWithout(name, targets) : JSON_NULL;
    const taken = await q
      .whereRaw(held.sql, held.bindings)
      .update({ [COLUMNS.data]: raw(db, setAttribute(name, value)) })
      .returning(COLUMNS.documentId);
    // documents that lost a target: what they showed through this relation changed
    for (const { document_id } of taken as Array<{ document_id: string }>) await touch(uid, document_id);
  }
}

/**
 * Apply writes made through inverse sides by rewriting the owners' stored relation: the set
 * of owners pointing at `documentId` becomes what the input asks for, and on a to-many side the
 * owners' ranks become the resulting order (positions and `set` order it, as on an owning side;
 * see inverse-order.ts). A failure throws, and the caller's transaction undoes the row already
 * written.
 */
export async function applyInverseWrites(
  db: Knex,
  touch: Touch,
  registry: Registry,
  documentId: string,
  writes: InverseWrite[],
  locale: string | null,
): Promise<void> {
  for (const { path: at, attr, input } of writes) {
    const owner = registry.owningSide(attr)!;
    const table = registry.contentType(owner.uid).collectionName;
    // the owners' rows change (their relation, their ranks), and with them every inverse list of
    // their targets: the owners' type, and which of its documents, is not named by the call
    await touch(owner.uid);
    const owners = (): Knex.QueryBuilder => sameLocale(db(table), registry, owner.uid, locale);
    const ranked = await rankedOwners(db, registry, owner.uid, owner.attribute, owner.toMany, documentId, locale);
    const current = ranked.map((o) => o.id);
    let next: string[];
    if (isToMany(attr)) {
      const list = applyRelationInput(current, input);
      if (typeof list === 'string') throw fieldErrors([positionIssue(at, list)]);
      next = list;
    } else {
      const kept = applyToOneInput(current.at(-1) ?? null, input);
      next = kept === null ? [] : [kept];
    }
    const added = next.filter((id) => !current.includes(id));
    const removed = current.filter((id) => !next.includes(id));
    const name = owner.attribute;
    if (removed.length > 0) {
      const held = holds(name, documentId, owner.toMany);
      const value = owner.toMany ? listWithout(name, documentId) : JSON_NULL;
      await owners()
        .whereIn(COLUMNS.documentId, removed)
        .whereRaw(held.sql, held.bindings)
        .update({ [COLUMNS.data]: raw(db, withoutRank(setAttribute(name, value), name, documentId)) });
    }
    if (added.length > 0) {
      const value = owner.toMany ? listWith(name, documentId) : documentIdValue(documentId);
      const q = owners().whereIn(COLUMNS.documentId, added);
      if (owner.toMany) {
        const missing = lacks(name, documentId);
        q.whereRaw(missing.sql, missing.bindings);
      }
      // exclusivity needs nothing more: on a to-one inverse side `next` holds one owner, so
      // every other owner that pointed here is in `removed` already
      await q.update({ [COLUMNS.data]: raw(db, setAttribute(name, value)) });
    }
    if (isToMany(attr)) {
      const ranks = new Map(ranked.map((o) => [o.id, o.rank]));
      await renumberOwners(db, registry, owner.uid, owner.attribute, documentId, locale, next, ranks);
    }
  }
}
