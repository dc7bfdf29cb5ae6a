/**
 * What publishing checks. A draft is written leniently (input.ts), so a document is checked
 * whole when it becomes published, as Strapi 5 does: every attribute of the stored draft against
 * every rule, and unique values against the other published documents. The problems are reported
 * together, in schema order, each with the stored value (a list's items as Strapi shows them).
 */
import type { Knex } from 'knex';
import type { Registry } from '../content-types/registry.ts';
import { isScalar, type Attributes, type ContentType } from '../content-types/types.ts';
import { isPlainObject } from '../config/merge.ts';
import { fieldErrors, type FieldIssue } from '../errors.ts';
import { checkScalar } from '../content-types/scalars.ts';
import { countIssue, requiredIssue, UNIQUE_MESSAGE } from './issues.ts';
import { listValue } from './component-values.ts';
import { uniqueTaken } from '../query/table-sql.ts';

/** Refuse to publish `data` (a draft of `documentId` in `locale`) unless it passes every rule. */
export async function checkPublishable(
  db: Knex,
  registry: Registry,
  ct: ContentType,
  documentId: string,
  locale: string | null,
  data: Record<string, unknown>,
): Promise<void> {
  const issues: FieldIssue[] = [];
  checkObject(registry, ct.attributes, data, [], issues);
  const taken = await takenUniqueValues(db, ct, documentId, locale, data);
  for (const name of taken) {
    issues.push({ path: [name], message: UNIQUE_MESSAGE, name: 'ValidationError', value: data[name] });
  }
  if (issues.length === 0) return;
  // schema order, as Strapi lists them (a unique value among the other problems)
  const order = Object.keys(ct.attributes);
  issues.sort((a, b) => order.indexOf(a.path[0]) - order.indexOf(b.path[0]));
  throw fieldErrors(issues);
}

function checkObject(
  registry: Registry,
  attributes: Attributes,
  data: Record<string, unknown>,
  path: string[],
  issues: FieldIssue[],
): void {
  for (const [name, attr] of Object.entries(attributes)) {
    const value = data[name];
    const at = [...path, name];
    // relations and media: Strapi checks `required` on them only under its strictRelations flag
    if (attr.type === 'relation' || attr.type === 'media') continue;
    const listed = attr.type === 'dynamiczone' || (attr.type === 'component' && attr.repeatable);
    if (value === null || value === undefined) {
      if (attr.required) issues.push(requiredIssue(at, attr));
      else if (listed) checkList(registry, attr, [], at, issues, null);
      continue;
    }
    // a stored password is a hash: its rules were checked when it was written
    if (attr.type === 'password') continue;
    if (isScalar(attr)) {
      const checked = checkScalar(attr, value, at, 'published');
      if (!checked.ok) issues.push(checked.issue);
    } else if (attr.type === 'component' && !attr.repeatable) {
      if (isPlainObject(value)) checkObject(registry, registry.component(attr.component).attributes, value, at, issues);
    } else if (attr.type === 'component') {
      checkList(registry, attr, Array.isArray(value) ? value : [], at, issues, attr.component);
    } else if (attr.type === 'dynamiczone') {
      checkList(registry, attr, Array.isArray(value) ? value : [], at, issues, null);
    }
  }
}

/** Each item (its own component's rules), then the count, in Strapi's order. */
function checkList(
  registry: Registry,
  attr: { min?: number; max?: number; required?: boolean },
  items: unknown[],
  path: string[],
  issues: FieldIssue[],
  uid: string | null,
): void {
  items.forEach((item, i) => {
    const of = uid ?? (isPlainObject(item) && typeof item.__component === 'string' ? item.__component : null);
    if (!of || !isPlainObject(item)) return;
    checkObject(registry, registry.component(of).attributes, item, [...path, String(i)], issues);
  });
  const found = countIssue(attr, items.length, path, null);
  if (found) issues.push({ ...found, value: listValue(registry, uid, items, uid === null) });
}

/**
 * Top-level unique attributes whose value another document's published version in this locale
 * holds already. Null and empty strings are never taken (Strapi skips them), matching the
 * unique indexes, which stay the guard against a concurrent publish.
 */
async function takenUniqueValues(
  db: Knex,
  ct: ContentType,
  documentId: string,
  locale: string | null,
  data: Record<string, unknown>,
): Promise<string[]> {
  const names = Object.entries(ct.attributes)
    // a json value is left to the index: its text in PostgreSQL is not JSON.stringify's
    .filter(
      ([name, attr]) =>
        isScalar(attr) &&
        attr.unique &&
        data[name] !== null &&
        data[name] !== undefined &&
        data[name] !== '' &&
        typeof data[name] !== 'object',
    )
    .map(([name]) => name);
  if (names.length === 0) return [];
  // the index's own expression and predicate, so the lookup is an index probe
  const checks = names.map((name) => {
    const taken = uniqueTaken(ct.collectionName, name, String(data[name]), locale, documentId);
    return db.raw(taken.sql, taken.bindings);
  });
  const row = (await db.select(checks).first()) as Record<string, boolean>;
  return names.filter((name) => row[name]);
}
