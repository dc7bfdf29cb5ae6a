import bcrypt from 'bcrypt';
import { newDocumentId } from './document-id.ts';
import { applicationError, fieldErrors, invalidKey, type FieldIssue } from '../errors.ts';
import { isPlainObject } from '../config/merge.ts';
import type { Registry } from '../content-types/registry.ts';
import type {
  Attribute,
  Attributes,
  ComponentAttribute,
  DynamicZoneAttribute,
  MediaAttribute,
  RelationAttribute,
  ScalarAttribute,
} from '../content-types/types.ts';
import { isScalar, isToMany } from '../content-types/types.ts';
import { checkScalar } from '../content-types/scalars.ts';
import { countIssue, issue, requiredIssue, undefinedIssue } from './issues.ts';
import { writtenListValue } from './component-values.ts';
import { parseRelationInput, type RelationInput } from './relation-input.ts';

const BCRYPT_ROUNDS = 10;

/** Keys a component instance may carry besides its attributes (sent back as read). */
const COMPONENT_META = new Set(['id', 'documentId', '__component']);

/** A relation value found in the payload, to be checked and applied once the walk is done. */
export interface PendingRelation {
  path: string[];
  attr: RelationAttribute;
  input: RelationInput;
  /** the object the final value is written to, and under which key */
  holder: Record<string, unknown>;
  key: string;
  /** stored value before this write (documentId, array, or undefined) */
  current: unknown;
}

export interface PendingMedia {
  path: string[];
  attr: MediaAttribute;
  ids: number[];
}

export interface PreparedWrite {
  data: Record<string, unknown>;
  relations: PendingRelation[];
  media: PendingMedia[];
  /** component instances that need a fresh id from the sequence */
  newComponents: Array<Record<string, unknown>>;
}

/** How strictly a write is checked. */
export interface WriteOptions {
  /**
   * A draft is checked leniently, as Strapi 5 checks it: types, `max` and `maxLength` only, no
   * `required`, `min`, `minLength`, `regex`, formats, nor component or dynamic-zone counts.
   * Publishing checks the rest (publish-check.ts).
   */
  draft?: boolean;
}

interface Walk {
  registry: Registry;
  issues: FieldIssue[];
  hashes: Array<Promise<void>>;
  out: PreparedWrite;
  draft: boolean;
  update: boolean;
  /** the attribute of the first component sent with an id that is not one of its own */
  foreign: string | null;
  /** count issues whose value is the list as written, rendered once the walk is done */
  lists: Array<{ issue: FieldIssue; uid: string | null; items: unknown[] }>;
}

/** Where component instances are written: the attribute, and whether ids sent must be its own. */
interface Place {
  name: string;
  strictIds: boolean;
  /** ids already kept in this list: a repeated one makes a new instance rather than a second copy */
  used: Set<string>;
}

/**
 * Validate and normalise a `data` payload for the attributes of a content-type or component.
 * `existing` is the stored data the write starts from: missing keys keep its values. When
 * updating, `required` only forbids explicit nulls; when creating (a new localization may
 * start from its document's shared attributes) what is still missing gets its default or
 * a required error. Collects every problem before failing, so the client gets them all in
 * `details.errors`; a component id that is not the stored instance's fails afterwards, as in
 * Strapi. Relations and media are collected, not checked: their existence is verified in
 * batches by the caller.
 */
export async function prepareWrite(
  registry: Registry,
  attributes: Attributes,
  input: Record<string, unknown>,
  existing: Record<string, unknown> | null,
  mode: 'create' | 'update',
  options: WriteOptions = {},
): Promise<PreparedWrite> {
  const walk: Walk = {
    registry,
    issues: [],
    hashes: [],
    out: { data: {}, relations: [], media: [], newComponents: [] },
    draft: options.draft === true,
    update: mode === 'update',
    foreign: null,
    lists: [],
  };
  walk.out.data = walkObject(walk, attributes, input, existing, [], new Set(), mode === 'create');
  await Promise.all(walk.hashes);
  if (walk.issues.length > 0) {
    for (const list of walk.lists) list.issue.value = writtenListValue(registry, list.uid, list.items);
    throw fieldErrors(walk.issues);
  }
  if (walk.foreign !== null) {
    throw applicationError(`Some of the provided components in ${walk.foreign} are not related to the entity`);
  }
  return walk.out;
}

function walkObject(
  walk: Walk,
  attributes: Attributes,
  input: Record<string, unknown>,
  existing: Record<string, unknown> | null,
  path: string[],
  allowedExtra: Set<string>,
  // a new row (or component instance) gets defaults and required checks for what it lacks
  creating: boolean,
  // keep what the client did not send (an update is partial), then overwrite what it did;
  // relations are resolved later into this very object, so it must not be copied afterwards
  out: Record<string, unknown> = existing ? { ...existing } : {},
  // what relation inputs apply to: the stored value (a kept component instance has one too)
  stored: Record<string, unknown> | null = existing,
): Record<string, unknown> {
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(attributes, key) && !allowedExtra.has(key)) {
      const full = [...path, key].join('.');
      throw invalidKey(key, full, 'body');
    }
  }
  // component ids must name stored instances only where some are stored: in an update, at the
  // top or inside a kept instance (a new instance's nested ids are ignored, as on a create)
  const strictIds = walk.update && stored !== null;
  for (const [name, attr] of Object.entries(attributes)) {
    const has = Object.hasOwn(input, name);
    const value = has ? input[name] : undefined;
    const at = [...path, name];
    if (!has) {
      if (!creating || (existing && Object.hasOwn(existing, name))) continue;
      applyDefault(walk, attr, at, out, name);
      continue;
    }
    writeAttribute(walk, attr, value, at, out, name, stored?.[name], strictIds);
  }
  return out;
}

function applyDefault(walk: Walk, attr: Attribute, path: string[], out: Record<string, unknown>, name: string): void {
  if (isScalar(attr) && attr.default !== undefined) {
    writeAttribute(walk, attr, attr.default, path, out, name, undefined, false);
  } else if (attr.type === 'relation' && isToMany(attr) && !attr.mappedBy) {
    out[name] = [];
  } else if (attr.required && !walk.draft) {
    // Strapi words a value never sent apart from a null one
    walk.issues.push(undefinedIssue(path));
  }
}

function writeAttribute(
  walk: Walk,
  attr: Attribute,
  value: unknown,
  path: string[],
  out: Record<string, unknown>,
  name: string,
  current: unknown,
  strictIds: boolean,
): void {
  if (attr.type === 'relation') {
    const parsed = parseRelationInput(value, path);
    if ('issue' in parsed) walk.issues.push(parsed.issue);
    else walk.out.relations.push({ path, attr, input: parsed.input, holder: out, key: name, current });
    return;
  }
  if (value === null || value === undefined) {
    const list =
      attr.type === 'dynamiczone' ||
      (attr.type === 'component' && attr.repeatable) ||
      (attr.type === 'media' && attr.multiple);
    if (attr.required && !walk.draft) walk.issues.push(requiredIssue(path, attr));
    else out[name] = list ? [] : null;
    return;
  }
  if (isScalar(attr)) writeScalar(walk, attr, value, path, out, name);
  else if (attr.type === 'media') writeMedia(walk, attr, value, path, out, name);
  else {
    const place: Place = { name, strictIds, used: new Set() };
    if (attr.type === 'component') writeComponent(walk, attr, value, path, out, current, place);
    else writeDynamicZone(walk, attr as DynamicZoneAttribute, value, path, out, current, place);
  }
}

function writeScalar(
  walk: Walk,
  attr: ScalarAttribute,
  value: unknown,
  path: string[],
  out: Record<string, unknown>,
  name: string,
): void {
  const checked = checkScalar(attr, value, path, walk.draft ? 'draft' : 'published');
  if (!checked.ok) {
    walk.issues.push(checked.issue);
    return;
  }
  out[name] = checked.value;
  if (attr.type === 'password') {
    walk.hashes.push(
      bcrypt.hash(String(checked.value), BCRYPT_ROUNDS).then((hash) => {
        out[name] = hash;
      }),
    );
  }
}

function writeMedia(
  walk: Walk,
  attr: MediaAttribute,
  value: unknown,
  path: string[],
  out: Record<string, unknown>,
  name: string,
): void {
  const items = attr.multiple ? value : [value];
  if (!Array.isArray(items)) {
    walk.issues.push(issue(path, 'must be an array of file ids', value));
    return;
  }
  const ids: number[] = [];
  for (const item of items) {
    const raw = isPlainObject(item) ? item.id : item;
    const id = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      walk.issues.push(issue(path, 'must reference files by their numeric id', item));
      return;
    }
    if (!ids.includes(id)) ids.push(id);
  }
  walk.out.media.push({ path, attr, ids });
  out[name] = attr.multiple ? ids : ids[0];
}

/** A list's item count against its bounds (never a draft's); its value is rendered at the end. */
function checkCount(
  walk: Walk,
  attr: { min?: number; max?: number; required?: boolean },
  items: unknown[],
  path: string[],
  uid: string | null,
): void {
  if (walk.draft) return;
  const found = countIssue(attr, items.length, path, items);
  if (!found) return;
  walk.issues.push(found);
  walk.lists.push({ issue: found, uid, items });
}

function writeComponent(
  walk: Walk,
  attr: ComponentAttribute,
  value: unknown,
  path: string[],
  out: Record<string, unknown>,
  current: unknown,
  place: Place,
): void {
  const schema = walk.registry.component(attr.component);
  if (attr.repeatable) {
    if (!Array.isArray(value)) {
      walk.issues.push(issue(path, 'must be a `array` type', value));
      return;
    }
    const previous = Array.isArray(current) ? (current as Array<Record<string, unknown>>) : [];
    const items = value.map((item, i) =>
      instance(walk, schema.attributes, item, [...path, String(i)], previous, place),
    );
    out[place.name] = items;
    // Strapi reports the items' problems before the count's
    checkCount(walk, attr, items, path, attr.component);
    return;
  }
  const previous = isPlainObject(current) ? [current] : [];
  out[place.name] = instance(walk, schema.attributes, value, path, previous, place);
}

function writeDynamicZone(
  walk: Walk,
  attr: DynamicZoneAttribute,
  value: unknown,
  path: string[],
  out: Record<string, unknown>,
  current: unknown,
  place: Place,
): void {
  if (!Array.isArray(value)) {
    walk.issues.push(issue(path, 'must be a `array` type', value));
    return;
  }
  const previous = Array.isArray(current) ? (current as Array<Record<string, unknown>>) : [];
  const items = value.map((item, i) => {
    const at = [...path, String(i)];
    const uid = isPlainObject(item) ? item.__component : undefined;
    if (typeof uid !== 'string' || !attr.components.includes(uid)) {
      walk.issues.push(
        issue(
          [...at, '__component'],
          `must be one of the following values: ${attr.components.join(', ')}`,
          uid ?? null,
        ),
      );
      return null;
    }
    const schema = walk.registry.component(uid);
    const same = previous.filter((p) => p.__component === uid);
    return instance(walk, schema.attributes, item, at, same, place, uid);
  });
  out[place.name] = items;
  checkCount(walk, attr, items, path, null);
}

/**
 * One component instance. An `id` naming an instance stored at this place updates that
 * instance in place, as Strapi does: what the client leaves out keeps its value, nested
 * components included. Without an id the instance is new and gets its id from the database
 * sequence after the walk. Where instances are stored (an update), an id that is none of
 * them is refused; in a new document or a new instance ids are ignored, as in Strapi.
 */
function instance(
  walk: Walk,
  attributes: Attributes,
  value: unknown,
  path: string[],
  previous: Array<Record<string, unknown>>,
  place: Place,
  dynamicZoneComponent?: string,
): Record<string, unknown> {
  if (!isPlainObject(value)) {
    walk.issues.push(issue(path, 'must be a `object` type', value));
    return {};
  }
  // Strapi compares ids as strings, and any `id` key counts, even null
  const sent = Object.hasOwn(value, 'id') ? String(value.id) : undefined;
  const match = sent === undefined ? undefined : previous.find((p) => String(p.id) === sent);
  if (sent !== undefined && !match && place.strictIds) walk.foreign ??= place.name;
  if (match && !place.used.has(sent!)) {
    place.used.add(sent!);
    // a partial update of the stored instance; `connect` inside applies to the relations it holds
    return walkObject(walk, attributes, value, match, path, COMPONENT_META, false, { ...match }, match);
  }
  const target: Record<string, unknown> = dynamicZoneComponent ? { __component: dynamicZoneComponent } : {};
  target.id = null;
  target.documentId = newDocumentId();
  // a new instance's id is filled in place from the sequence once the whole payload is valid
  walk.out.newComponents.push(target);
  return walkObject(walk, attributes, value, null, path, COMPONENT_META, true, target, null);
}
