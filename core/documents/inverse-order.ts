/**
 * The order of inverse (`mappedBy`) to-many relations. Who is related is decided by the owners
 * (they hold the documentIds); the order Strapi shows on the inverse side is kept on the inverse
 * document's rows, under the inverse attribute's own name in `data`:
 *
 *   data.<attribute> = { "<owner locale, or '' when the owner type is not localized>": [owner documentIds] }
 *
 * one list per owner locale, since a type that is not localized (a tag) lists the owners of every
 * locale (articles in en, in fr) and Strapi orders each locale's links on their own. The list is
 * an order, not the membership: reads show the owners that hold the document, in the list's order,
 * owners missing from it first (rows written before the list existed), then by age. Strapi's
 * rules, which the writes below keep: an owner that newly connects the document goes last; one
 * that already held it keeps its place; a write through the inverse side stores the order it
 * computed (positions, `set`). Lists are the same in a document's draft and published rows.
 */
import type { Knex } from 'knex';
import type { Registry } from '../content-types/registry.ts';
import { isLocalized, isToMany, type RelationAttribute } from '../content-types/types.ts';
import { whereLocale } from './rows.ts';

/** An owning relation's stored targets before and after a write of one owner row. */
export interface OwnedChange {
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

/** The list an owner of `ownerUid` in `locale` is kept in. */
export const orderKey = (registry: Registry, ownerUid: string, locale: string | null | undefined): string =>
  (isLocalized(registry.contentType(ownerUid)) && locale && locale !== '*' ? locale : '');

/** The stored order of one inverse attribute of a row, for one owner locale. */
export function storedOrder(data: Record<string, unknown>, attribute: string, key: string): string[] {
  const lists = data[attribute];
  if (lists === null || typeof lists !== 'object' || Array.isArray(lists)) return [];
  const list = (lists as Record<string, unknown>)[key];
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * `data` with the list `key` of `attribute` changed: an owner moved last, an owner removed, or
 * the whole list replaced. Anything else stored there (not an object, not an array) is replaced.
 */
type ListChange = { last: string } | { drop: string } | { set: string[] };

function withList(db: Knex, attribute: string, key: string, change: ListChange): Knex.Raw {
  const lists = `CASE WHEN jsonb_typeof(data -> ?) = 'object' THEN data -> ? ELSE '{}'::jsonb END`;
  const list = `CASE WHEN jsonb_typeof(data -> ? -> ?) = 'array' THEN data -> ? -> ? ELSE '[]'::jsonb END`;
  const head = [attribute, attribute, attribute, key];
  let value: string;
  let bindings: Knex.Value[];
  if ('set' in change) {
    value = '?::jsonb';
    bindings = [JSON.stringify(change.set)];
  } else {
    value = 'last' in change ? `(${list} - ?::text) || to_jsonb(?::text)` : `(${list} - ?::text)`;
    bindings = [attribute, key, attribute, key, ...('last' in change ? [change.last, change.last] : [change.drop])];
  }
  const sql = `jsonb_set(data, ARRAY[?]::text[], (${lists}) || jsonb_build_object(?::text, ${value}))`;
  return db.raw(sql, [...head, ...bindings]);
}

/**
 * After an owner row was written: in the inverse lists of the targets it gained, it goes last
 * (Strapi appends a new link); the targets it lost forget it. Targets it kept are not touched.
 * A localized target is changed in the owner's locale only (relations are localized).
 */
export async function recordOwnerChanges(
  db: Knex, registry: Registry, ownerUid: string, documentId: string, locale: string | null,
  changes: OwnedChange[],
): Promise<void> {
  const key = orderKey(registry, ownerUid, locale);
  // an owner without locales holds every locale of a localized target
  const targetLocale = isLocalized(registry.contentType(ownerUid)) ? locale : null;
  for (const { attr, previous, next } of changes) {
    if (!keepsInverseOrder(registry, attr)) continue;
    const target = registry.contentType(attr.target);
    const rows = (ids: string[]): Knex.QueryBuilder =>
      whereLocale(db(target.collectionName), target, targetLocale).whereIn('document_id', ids);
    const gained = next.filter((id) => !previous.includes(id));
    const lost = previous.filter((id) => !next.includes(id));
    const inverse = attr.inversedBy!;
    if (gained.length > 0) await rows(gained).update({ data: withList(db, inverse, key, { last: documentId }) });
    if (lost.length > 0) await rows(lost).update({ data: withList(db, inverse, key, { drop: documentId }) });
  }
}

/** After a write through an inverse side: its rows in `locale` keep the order it computed. */
export async function storeInverseOrder(
  db: Knex, registry: Registry, uid: string, documentId: string, attribute: string, locale: string | null,
  owners: string[],
): Promise<void> {
  const ct = registry.contentType(uid);
  const owner = registry.owningSide(ct.attributes[attribute] as RelationAttribute)!;
  const key = orderKey(registry, owner.uid, locale);
  await whereLocale(db(ct.collectionName).where('document_id', documentId), ct, locale)
    .update({ data: withList(db, attribute, key, { set: owners }) });
}

/** A deleted owner document (every locale gone) leaves the lists of the targets its rows held. */
export async function forgetOwner(
  db: Knex, registry: Registry, ownerUid: string, documentId: string, rows: Array<{ data: Record<string, unknown> }>,
): Promise<void> {
  for (const [name, attr] of Object.entries(registry.contentType(ownerUid).attributes)) {
    if (attr.type !== 'relation' || !keepsInverseOrder(registry, attr)) continue;
    const held = new Set(rows.flatMap((r) => {
      const v = r.data[name];
      return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
    }));
    if (held.size === 0) continue;
    const inverse = attr.inversedBy!;
    await db(registry.contentType(attr.target).collectionName).whereIn('document_id', [...held])
      .whereRaw(`jsonb_typeof(data -> ?) = 'object'`, [inverse])
      .update({
        data: db.raw(
          `jsonb_set(data, ARRAY[?]::text[], COALESCE((SELECT jsonb_object_agg(e.key, `
          + `CASE WHEN jsonb_typeof(e.value) = 'array' THEN e.value - ?::text ELSE e.value END) `
          + `FROM jsonb_each(data -> ?) e), '{}'::jsonb))`,
          [inverse, documentId, inverse],
        ),
      });
  }
}
