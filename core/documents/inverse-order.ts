/**
 * The order of inverse (`mappedBy`) to-many relations. Who is related is decided by the owners
 * (they hold the documentIds); the order Strapi shows on the inverse side is kept on the owners'
 * rows too, as each owner's rank in each target's list:
 *
 *   data.$order = { "<owning attribute>": { "<target documentId>": rank } }
 *
 * (`$` cannot start an attribute name, so no attribute clashes with it; reads never show it).
 * An owner row is one locale and one status, so a type without locales (a tag) gets one order
 * per locale of its owners, as in Strapi. Kept on the owners, not on the target, because owners
 * are what a write locks already: an edit of the target never waits for a write pointing at it.
 * Strapi's rules: an owner that newly connects a target goes last; one that held it keeps its rank;
 * a write through the inverse side renumbers its owners to the order it computed (positions, `set`),
 * 1, 2, …. "Last" is a rank from a sequence (RANK_SEQUENCE), larger than every rank given before
 * and than any renumbered one: ranks only order a list, and the largest rank of a target's owners
 * + 1 would read all of them on every write. Reads sort by rank, owners without one (rows written
 * before ranks existed) first, then by age.
 */
import type { Knex } from 'knex';
import type { Registry } from '../content-types/registry.ts';
import { isPlainObject } from '../config/merge.ts';
import { isLocalized, isToMany, type RelationAttribute } from '../content-types/types.ts';
import { COLUMNS, ORDER_KEY } from '../query/sql.ts';
import { BY_RANK, largestRankOf, NEXT_RANK } from '../query/table-sql.ts';
import type { Row } from './rows.ts';
import { holds, setRanks } from '../query/jsonb-writes.ts';
import { whereLocale } from './rows.ts';

/** An owning relation's stored targets before and after a write of one owner row. */
export interface OwnedChange {
  name: string;
  attr: RelationAttribute;
  previous: string[];
  next: string[];
}

/** Whether the inverse side of an owning relation is to-many (so has an order to keep). */
export function keepsInverseOrder(registry: Registry, attr: RelationAttribute): boolean {
  if (!attr.inversedBy || attr.mappedBy) return false;
  const inverse = registry.contentType(attr.target).attributes[attr.inversedBy];
  return inverse?.type === 'relation' && isToMany(inverse);
}

/** The ranks an owner row holds for one owning attribute (target documentId → rank). */
function ranksOf(data: Record<string, unknown>, name: string): Record<string, number> {
  const all = data[ORDER_KEY];
  const ranks = isPlainObject(all) ? all[name] : undefined;
  return isPlainObject(ranks) ? { ...(ranks as Record<string, number>) } : {};
}

/**
 * Before an owner row is written (`data`): the targets it gained get it last in their lists (one
 * rank from the sequence for all of them, one statement), the targets it lost forget its rank;
 * targets it kept keep theirs.
 */
export async function rankOwner(
  db: Knex,
  registry: Registry,
  data: Record<string, unknown>,
  changes: OwnedChange[],
): Promise<void> {
  let next: number | undefined;
  for (const { name, attr, previous, next: held } of changes) {
    if (!keepsInverseOrder(registry, attr)) continue;
    const ranks = ranksOf(data, name);
    for (const id of Object.keys(ranks)) if (!held.includes(id)) delete ranks[id];
    const gained = held.filter((id) => !previous.includes(id));
    if (gained.length > 0) {
      if (next === undefined) {
        const { rows } = (await db.raw(NEXT_RANK)) as { rows: Array<{ rank: number }> };
        next = Number(rows[0].rank);
      }
      for (const id of gained) ranks[id] = next;
    }
    const all = isPlainObject(data[ORDER_KEY]) ? (data[ORDER_KEY] as Record<string, unknown>) : {};
    data[ORDER_KEY] = { ...all, [name]: ranks };
  }
}

/**
 * The owners of `documentId` in `locale` holding it through `attribute`, in the inverse side's
 * order (rank, then age), with the rank each has (null: none yet).
 */
export async function rankedOwners(
  db: Knex,
  registry: Registry,
  ownerUid: string,
  attribute: string,
  toMany: boolean,
  documentId: string,
  locale: string | null,
): Promise<Array<{ id: string; rank: number | null }>> {
  const ct = registry.contentType(ownerUid);
  const held = holds(attribute, documentId, toMany);
  const rank = largestRankOf(attribute, documentId);
  const rows: Array<Pick<Row, 'document_id'> & { rank: number | null }> = await whereLocale(
    db(ct.collectionName),
    ct,
    locale,
  )
    .select(COLUMNS.documentId, db.raw(rank.sql, rank.bindings))
    .whereRaw(held.sql, held.bindings)
    .groupBy(COLUMNS.documentId)
    .orderByRaw(BY_RANK);
  return rows.map((r) => ({ id: r.document_id, rank: r.rank }));
}

/**
 * After a write through an inverse side: its owners in `locale` (`next`, in order) are ranked
 * 1, 2, … in `documentId`'s list; only the rows whose rank changes are written (one statement).
 */
export async function renumberOwners(
  db: Knex,
  registry: Registry,
  ownerUid: string,
  attribute: string,
  documentId: string,
  locale: string | null,
  next: string[],
  ranks: ReadonlyMap<string, number | null>,
): Promise<void> {
  const moved = next.map((id, i) => ({ id, rank: i + 1 })).filter((o) => ranks.get(o.id) !== o.rank);
  if (moved.length === 0) return;
  const ct = registry.contentType(ownerUid);
  const local = isLocalized(ct) && locale !== null && locale !== '*';
  const update = setRanks(ct.collectionName, attribute, documentId, moved, local ? locale : null);
  await db.raw(update.sql, update.bindings);
}
