import bcrypt from 'bcrypt';
import { createId } from '@paralleldrive/cuid2';
import { fieldErrors, invalidKey, type FieldIssue } from '../errors.ts';
import { isPlainObject } from '../config/merge.ts';
import type { Registry } from '../content-types/registry.ts';
import type {
  Attribute, Attributes, ComponentAttribute, DynamicZoneAttribute, MediaAttribute, RelationAttribute, ScalarAttribute,
} from '../content-types/types.ts';
import { isScalar, isToMany } from '../content-types/types.ts';
import { checkScalar } from './scalars.ts';
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

interface Walk {
  registry: Registry;
  issues: FieldIssue[];
  hashes: Array<Promise<void>>;
  out: PreparedWrite;
}

const typeLabel = (attr: Attribute): string => {
  if (attr.type === 'component') return attr.repeatable ? 'array' : 'object';
  if (attr.type === 'dynamiczone') return 'array';
  if (attr.type === 'relation' || attr.type === 'media') return attr.type;
  return ['integer', 'biginteger', 'float', 'decimal'].includes(attr.type) ? 'number' : attr.type === 'boolean' ? 'boolean' : 'string';
};

const requiredIssue = (path: string[], attr: Attribute): FieldIssue => ({
  path,
  message: `${path.join('.')} must be a \`${typeLabel(attr)}\` type, but the final value was: \`null\`.`,
  name: 'ValidationError',
  value: null,
});

const issue = (path: string[], message: string, value: unknown): FieldIssue => ({
  path, message: `${path.join('.')} ${message}`, name: 'ValidationError', value,
});

/**
 * Validate and normalise a `data` payload for the attributes of a content-type or component.
 * `existing` is the stored data the write starts from: missing keys keep its values. When
 * updating, `required` only forbids explicit nulls; when creating (a new localization may
 * start from its document's shared attributes) what is still missing gets its default or
 * a required error. Collects every problem before failing, so the
 * client gets them all in `details.errors`. Relations and media are collected, not checked:
 * their existence is verified in batches by the caller.
 */
export async function prepareWrite(
  registry: Registry,
  attributes: Attributes,
  input: Record<string, unknown>,
  existing: Record<string, unknown> | null,
  mode: 'create' | 'update',
): Promise<PreparedWrite> {
  const walk: Walk = { registry, issues: [], hashes: [], out: { data: {}, relations: [], media: [], newComponents: [] } };
  walk.out.data = walkObject(walk, attributes, input, existing, [], new Set(), mode === 'create');
  await Promise.all(walk.hashes);
  if (walk.issues.length > 0) throw fieldErrors(walk.issues);
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
  for (const [name, attr] of Object.entries(attributes)) {
    const has = Object.hasOwn(input, name);
    const value = has ? input[name] : undefined;
    const at = [...path, name];
    if (!has) {
      if (!creating || (existing && Object.hasOwn(existing, name))) continue;
      applyDefault(walk, attr, at, out, name);
      continue;
    }
    writeAttribute(walk, attr, value, at, out, name, stored?.[name]);
  }
  return out;
}

function applyDefault(walk: Walk, attr: Attribute, path: string[], out: Record<string, unknown>, name: string): void {
  if (isScalar(attr) && attr.default !== undefined) {
    writeAttribute(walk, attr, attr.default, path, out, name, undefined);
  } else if (attr.type === 'relation' && isToMany(attr) && !attr.mappedBy) {
    out[name] = [];
  } else if (attr.required) {
    walk.issues.push(requiredIssue(path, attr));
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
): void {
  if (attr.type === 'relation') {
    const parsed = parseRelationInput(value, path);
    if ('issue' in parsed) walk.issues.push(parsed.issue);
    else walk.out.relations.push({ path, attr, input: parsed.input, holder: out, key: name, current });
    return;
  }
  if (value === null || value === undefined) {
    if (attr.required) walk.issues.push(requiredIssue(path, attr));
    else out[name] = attr.type === 'dynamiczone' || (attr.type === 'component' && attr.repeatable) || (attr.type === 'media' && attr.multiple) ? [] : null;
    return;
  }
  if (isScalar(attr)) return writeScalar(walk, attr, value, path, out, name);
  if (attr.type === 'media') return writeMedia(walk, attr, value, path, out, name);
  if (attr.type === 'component') return writeComponent(walk, attr, value, path, out, name, current);
  return writeDynamicZone(walk, attr as DynamicZoneAttribute, value, path, out, name, current);
}

function writeScalar(walk: Walk, attr: ScalarAttribute, value: unknown, path: string[], out: Record<string, unknown>, name: string): void {
  const checked = checkScalar(attr, value, path);
  if (!checked.ok) {
    walk.issues.push(checked.issue);
    return;
  }
  out[name] = checked.value;
  if (attr.type === 'password') {
    walk.hashes.push(bcrypt.hash(String(checked.value), BCRYPT_ROUNDS).then((hash) => { out[name] = hash; }));
  }
}

function writeMedia(walk: Walk, attr: MediaAttribute, value: unknown, path: string[], out: Record<string, unknown>, name: string): void {
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

function countIssue(walk: Walk, attr: { min?: number; max?: number }, n: number, path: string[], value: unknown): boolean {
  if (attr.min !== undefined && n < attr.min) {
    walk.issues.push(issue(path, `must have at least ${attr.min} items`, value));
    return true;
  }
  if (attr.max !== undefined && n > attr.max) {
    walk.issues.push(issue(path, `must have at most ${attr.max} items`, value));
    return true;
  }
  return false;
}

function writeComponent(
  walk: Walk, attr: ComponentAttribute, value: unknown, path: string[], out: Record<string, unknown>, name: string, current: unknown,
): void {
  const schema = walk.registry.component(attr.component);
  if (attr.repeatable) {
    if (!Array.isArray(value)) {
      walk.issues.push(issue(path, 'must be a `array` type', value));
      return;
    }
    if (countIssue(walk, attr, value.length, path, value)) return;
    const previous = Array.isArray(current) ? (current as Array<Record<string, unknown>>) : [];
    out[name] = value.map((item, i) => instance(walk, schema.attributes, item, [...path, String(i)], previous, COMPONENT_META));
    return;
  }
  const previous = isPlainObject(current) ? [current] : [];
  out[name] = instance(walk, schema.attributes, value, path, previous, COMPONENT_META);
}

function writeDynamicZone(
  walk: Walk, attr: DynamicZoneAttribute, value: unknown, path: string[], out: Record<string, unknown>, name: string, current: unknown,
): void {
  if (!Array.isArray(value)) {
    walk.issues.push(issue(path, 'must be a `array` type', value));
    return;
  }
  if (countIssue(walk, attr, value.length, path, value)) return;
  const previous = Array.isArray(current) ? (current as Array<Record<string, unknown>>) : [];
  out[name] = value.map((item, i) => {
    const at = [...path, String(i)];
    const uid = isPlainObject(item) ? item.__component : undefined;
    if (typeof uid !== 'string' || !attr.components.includes(uid)) {
      walk.issues.push(issue([...at, '__component'], `must be one of the following values: ${attr.components.join(', ')}`, uid ?? null));
      return null;
    }
    const schema = walk.registry.component(uid);
    const same = previous.filter((p) => p.__component === uid);
    return instance(walk, schema.attributes, item, at, same, COMPONENT_META, uid);
  });
}

/**
 * One component instance. An `id` naming an instance already stored at this place keeps
 * that instance's identity (Strapi's way to update a component in place); any other
 * instance is new and gets its id from the database sequence after the walk.
 */
function instance(
  walk: Walk,
  attributes: Attributes,
  value: unknown,
  path: string[],
  previous: Array<Record<string, unknown>>,
  extra: Set<string>,
  dynamicZoneComponent?: string,
): Record<string, unknown> {
  if (!isPlainObject(value)) {
    walk.issues.push(issue(path, 'must be a `object` type', value));
    return {};
  }
  const kept = value.id !== undefined ? previous.find((p) => p.id === value.id) : undefined;
  const target: Record<string, unknown> = dynamicZoneComponent ? { __component: dynamicZoneComponent } : {};
  target.id = kept ? kept.id : null;
  target.documentId = kept ? kept.documentId : createId();
  // a new instance's id is filled in place from the sequence once the whole payload is valid
  if (!kept) walk.out.newComponents.push(target);
  // a component is sent whole (Strapi cannot patch one by id), but `connect` inside a kept
  // instance applies to the relations it already holds
  return walkObject(walk, attributes, value, null, path, extra, true, target, kept ?? null);
}
