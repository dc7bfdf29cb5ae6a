/**
 * Start-up checks on every schema. Schemas come from hand-edited JSON, so nothing is trusted:
 * each check reads the raw value and fails with a message naming the file and the attribute,
 * so a developer can fix the schema without reading Vellum's source.
 */
import { configurationError } from '../errors.ts';
import { RELATION_KINDS, SCALAR_TYPES } from './types.ts';
import type { Component, ContentType } from './types.ts';

type Raw = Record<string, unknown>;
type Schema = ContentType | Component;
interface Registry {
  contentTypes: Map<string, ContentType>;
  components: Map<string, Component>;
}

const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEBAB = /^[a-z][a-z0-9-]*$/;
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;
const COMPONENT_UID = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const DIGITS = /^-?\d+$/;
// Postgres truncates identifiers beyond this, which would make two tables collide silently.
const MAX_TABLE_NAME = 63;

// Keys Vellum (and Strapi's API) put on every entry, plus keys that would reach Object.prototype.
const RESERVED = new Set([
  'id',
  'documentId',
  'document_id',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'createdBy',
  'updatedBy',
  'locale',
  'localizations',
  'status',
  '__component',
  '__proto__',
  'constructor',
  'prototype',
]);
const SCALARS = new Set<string>(SCALAR_TYPES);
const OTHER_TYPES = new Set(['relation', 'media', 'component', 'dynamiczone']);
const KINDS = new Set<string>(RELATION_KINDS);
const MORPH_KINDS = new Set(['morphToOne', 'morphToMany', 'morphOne', 'morphMany']);
const NUMBER_TYPES = new Set(['integer', 'biginteger', 'float', 'decimal']);
// Types whose default is written as a string.
const STRING_VALUED = new Set([
  'string',
  'text',
  'richtext',
  'email',
  'password',
  'uid',
  'enumeration',
  'date',
  'time',
  'datetime',
  'timestamp',
]);
const NEVER_UNIQUE = new Set(['json', 'blocks', 'password']);
const MEDIA_TYPES = ['images', 'files', 'videos', 'audios'];
// The kind the other side must declare; the mapping is its own inverse, so it reads both ways.
const PAIRED_KIND: Record<string, string> = {
  oneToOne: 'oneToOne',
  manyToOne: 'oneToMany',
  oneToMany: 'manyToOne',
  manyToMany: 'manyToMany',
};

/** Check every content-type and component; throws a ConfigurationError on the first mistake. */
export function validateSchemas(contentTypes: ContentType[], components: Component[]): void {
  const registry: Registry = {
    contentTypes: indexByUid(contentTypes, 'content-type'),
    components: indexByUid(components, 'component'),
  };
  for (const ct of contentTypes) checkContentType(ct, registry);
  checkNamesAreUnique(contentTypes);
  for (const component of components) checkComponent(component, registry);
  for (const component of components) checkNotSelfContaining(component, registry);
}

function checkContentType(ct: ContentType, registry: Registry): void {
  if (ct.kind !== 'collectionType' && ct.kind !== 'singleType') {
    fail(ct, `kind must be "collectionType" or "singleType" (got ${show(ct.kind)})`);
  }
  if (!isObject(ct.info)) fail(ct, 'info must be an object');
  const { singularName, pluralName } = ct.info as Raw;
  checkKebab(ct, 'singularName', singularName);
  checkKebab(ct, 'pluralName', pluralName);
  if (singularName === pluralName)
    fail(ct, `info.singularName and info.pluralName must differ (both "${singularName}")`);
  const folder = ct.uid.slice(ct.uid.lastIndexOf('.') + 1);
  if (ct.origin === 'api' && folder !== singularName) {
    fail(ct, `info.singularName "${singularName}" must equal the folder name "${folder}"`);
  }
  checkTableName(ct, ct.collectionName, true);
  if (!isObject(ct.options)) fail(ct, 'options must be an object');
  if (ct.options.draftAndPublish !== undefined && typeof ct.options.draftAndPublish !== 'boolean') {
    fail(ct, 'options.draftAndPublish must be a boolean');
  }
  if (!isObject(ct.pluginOptions)) fail(ct, 'pluginOptions must be an object');
  checkAttributes(ct, registry, false);
}

function checkComponent(component: Component, registry: Registry): void {
  if (!COMPONENT_UID.test(component.uid)) {
    fail(component, `component uid "${component.uid}" must be <category>.<name> (letters, digits, - and _)`);
  }
  checkTableName(component, component.collectionName, false);
  checkAttributes(component, registry, true);
}

function checkAttributes(owner: Schema, registry: Registry, inComponent: boolean): void {
  if (!isObject(owner.attributes)) fail(owner, 'attributes must be an object');
  for (const [name, attr] of Object.entries(owner.attributes)) {
    if (!ATTRIBUTE_NAME.test(name))
      failAttr(owner, name, 'has an invalid name (letters, digits and _, not starting with a digit)');
    if (RESERVED.has(name)) failAttr(owner, name, 'uses a reserved name');
    if (!isObject(attr)) failAttr(owner, name, 'must be an object');
    checkAttribute(owner, name, attr as Raw, registry, inComponent);
  }
}

function checkAttribute(owner: Schema, name: string, attr: Raw, registry: Registry, inComponent: boolean): void {
  for (const flag of ['required', 'private', 'unique', 'configurable', 'searchable']) {
    if (attr[flag] !== undefined && typeof attr[flag] !== 'boolean')
      failAttr(owner, name, `has "${flag}" that is not a boolean`);
  }
  const type = attr.type;
  if (typeof type !== 'string') failAttr(owner, name, 'has no type');
  if (!SCALARS.has(type) && !OTHER_TYPES.has(type)) failAttr(owner, name, `has unknown type "${type}"`);
  if (attr.unique === true && (!SCALARS.has(type) || NEVER_UNIQUE.has(type))) {
    failAttr(owner, name, `cannot be unique (type "${type}")`);
  }
  if (SCALARS.has(type)) {
    checkScalarAttribute(owner, name, attr, type);
    return;
  }
  switch (type) {
    case 'relation':
      checkRelation(owner, name, attr, registry, inComponent);
      return;
    case 'media':
      checkMedia(owner, name, attr);
      return;
    case 'component':
      checkComponentUid(owner, name, attr.component, registry);
      if (attr.repeatable !== undefined && typeof attr.repeatable !== 'boolean')
        failAttr(owner, name, 'has "repeatable" that is not a boolean');
      checkCountBounds(owner, name, attr);
      return;
    case 'dynamiczone':
      if (inComponent) failAttr(owner, name, 'is a dynamic zone, which components cannot contain');
      if (!Array.isArray(attr.components) || attr.components.length === 0)
        failAttr(owner, name, 'must list at least one component in "components"');
      for (const uid of attr.components) checkComponentUid(owner, name, uid, registry);
      if (new Set(attr.components).size !== attr.components.length)
        failAttr(owner, name, 'lists a component twice in "components"');
      checkCountBounds(owner, name, attr);
      return;
  }
}

function checkScalarAttribute(owner: Schema, name: string, attr: Raw, type: string): void {
  if (type === 'enumeration') checkEnum(owner, name, attr);
  const fallback = attr.default;
  if (fallback !== undefined && fallback !== null && !defaultFits(type, fallback)) {
    failAttr(owner, name, `has default ${show(fallback)}, which is not a valid ${type}`);
  }
  if (NUMBER_TYPES.has(type)) {
    const min = numberBound(owner, name, attr, 'min', type);
    const max = numberBound(owner, name, attr, 'max', type);
    if (min !== undefined && max !== undefined && compare(min, max) > 0)
      failAttr(owner, name, `has "min" ${min} greater than "max" ${max}`);
    // defaultFits has made any number-type default a number or a string of digits.
    if (typeof fallback === 'number' || typeof fallback === 'string') {
      if (min !== undefined && compare(fallback, min) < 0)
        failAttr(owner, name, `has default ${fallback} below "min" ${min}`);
      if (max !== undefined && compare(fallback, max) > 0)
        failAttr(owner, name, `has default ${fallback} above "max" ${max}`);
    }
  }
  const minLength = lengthBound(owner, name, attr, 'minLength');
  const maxLength = lengthBound(owner, name, attr, 'maxLength');
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    failAttr(owner, name, `has "minLength" ${minLength} greater than "maxLength" ${maxLength}`);
  }
  if (attr.regex !== undefined) {
    if (typeof attr.regex !== 'string') failAttr(owner, name, 'has "regex" that is not a string');
    try {
      new RegExp(attr.regex);
    } catch (err) {
      failAttr(owner, name, `has "regex" that does not compile (${(err as Error).message})`);
    }
  }
}

function checkEnum(owner: Schema, name: string, attr: Raw): void {
  const values = attr.enum;
  if (!Array.isArray(values) || values.length === 0)
    failAttr(owner, name, 'must list its values in a non-empty "enum" array');
  const seen = new Set<unknown>();
  for (const value of values) {
    if (typeof value !== 'string' || value === '')
      failAttr(owner, name, `has enum value ${show(value)}; values must be non-empty strings`);
    if (seen.has(value)) failAttr(owner, name, `lists enum value "${value}" twice`);
    seen.add(value);
  }
  if (attr.default !== undefined && attr.default !== null && !seen.has(attr.default)) {
    failAttr(owner, name, `has default ${show(attr.default)}, which is not one of its enum values`);
  }
}

function defaultFits(type: string, value: unknown): boolean {
  if (STRING_VALUED.has(type)) return typeof value === 'string';
  switch (type) {
    case 'integer':
      return Number.isSafeInteger(value);
    case 'biginteger':
      return Number.isSafeInteger(value) || (typeof value === 'string' && DIGITS.test(value));
    case 'float':
    case 'decimal':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'blocks':
      return Array.isArray(value);
    default:
      return true; // json: any JSON value is a valid default
  }
}

function checkRelation(owner: Schema, name: string, attr: Raw, registry: Registry, inComponent: boolean): void {
  const kind = attr.relation;
  if (typeof kind === 'string' && MORPH_KINDS.has(kind))
    failAttr(owner, name, `uses relation "${kind}", which is not supported (no polymorphic relations)`);
  if (typeof kind !== 'string' || !KINDS.has(kind)) failAttr(owner, name, `has unknown relation kind ${show(kind)}`);
  const target = attr.target;
  if (typeof target !== 'string' || !registry.contentTypes.has(target))
    failAttr(owner, name, `targets unknown content-type ${show(target)}`);
  const { mappedBy, inversedBy } = attr;
  if (mappedBy === undefined && inversedBy === undefined) return;
  if (inComponent)
    failAttr(
      owner,
      name,
      'is a relation in a component, which cannot use mappedBy/inversedBy (component relations are one-directional)',
    );
  if (kind === 'oneWay' || kind === 'manyWay')
    failAttr(owner, name, `is ${kind}, which cannot use mappedBy/inversedBy`);
  if (mappedBy !== undefined && inversedBy !== undefined)
    failAttr(owner, name, 'cannot have both mappedBy and inversedBy');
  checkOtherSide(
    owner,
    name,
    attr,
    inversedBy !== undefined ? 'inversedBy' : 'mappedBy',
    registry.contentTypes.get(target)!,
  );
}

/** The attribute named by inversedBy/mappedBy must exist, point back here, and have the paired kind. */
function checkOtherSide(
  owner: Schema,
  name: string,
  attr: Raw,
  key: 'inversedBy' | 'mappedBy',
  target: ContentType,
): void {
  const otherName = attr[key];
  const backKey = key === 'inversedBy' ? 'mappedBy' : 'inversedBy';
  if (typeof otherName !== 'string' || otherName === '')
    failAttr(owner, name, `has "${key}" that is not an attribute name`);
  const ref = `${target.uid}.${otherName}`;
  const attrs = isObject(target.attributes) ? target.attributes : {};
  const other = (Object.hasOwn(attrs, otherName) ? attrs[otherName] : undefined) as Raw | undefined;
  if (!isObject(other) || other.type !== 'relation' || other.target !== owner.uid) {
    failAttr(owner, name, `has ${key} "${otherName}", but ${ref} is not a relation to ${owner.uid}`);
  }
  if (other[backKey] !== name)
    failAttr(owner, name, `has ${key} "${otherName}", but ${ref} does not have ${backKey} "${name}"`);
  const expected = PAIRED_KIND[attr.relation as string];
  if (other.relation !== expected) {
    failAttr(owner, name, `is ${attr.relation}, so ${ref} must be ${expected} (found ${show(other.relation)})`);
  }
}

function checkMedia(owner: Schema, name: string, attr: Raw): void {
  if (attr.multiple !== undefined && typeof attr.multiple !== 'boolean')
    failAttr(owner, name, 'has "multiple" that is not a boolean');
  const allowed = attr.allowedTypes;
  // Strapi writes null for "any type".
  if (allowed === undefined || allowed === null) return;
  if (!Array.isArray(allowed) || !allowed.every((t) => MEDIA_TYPES.includes(t as string))) {
    failAttr(owner, name, `has "allowedTypes" ${show(allowed)}; allowed values are ${MEDIA_TYPES.join(', ')}`);
  }
}

function checkComponentUid(owner: Schema, name: string, uid: unknown, registry: Registry): void {
  if (typeof uid !== 'string' || !registry.components.has(uid))
    failAttr(owner, name, `uses unknown component ${show(uid)}`);
}

function checkCountBounds(owner: Schema, name: string, attr: Raw): void {
  for (const key of ['min', 'max']) {
    const v = attr[key];
    if (v !== undefined && !(Number.isSafeInteger(v) && (v as number) >= 0))
      failAttr(owner, name, `has "${key}" that is not a non-negative integer`);
  }
  if (typeof attr.min === 'number' && typeof attr.max === 'number' && attr.min > attr.max) {
    failAttr(owner, name, `has "min" ${attr.min} greater than "max" ${attr.max}`);
  }
}

function numberBound(
  owner: Schema,
  name: string,
  attr: Raw,
  key: 'min' | 'max',
  type: string,
): number | string | undefined {
  const v = attr[key];
  if (v === undefined) return undefined;
  const ok =
    type === 'biginteger'
      ? Number.isSafeInteger(v) || (typeof v === 'string' && DIGITS.test(v))
      : typeof v === 'number' && Number.isFinite(v);
  if (!ok)
    failAttr(owner, name, `has "${key}" ${show(v)}, which is not ${type === 'biginteger' ? 'an integer' : 'a number'}`);
  return v as number | string;
}

function lengthBound(owner: Schema, name: string, attr: Raw, key: 'minLength' | 'maxLength'): number | undefined {
  const v = attr[key];
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || (v as number) < 0)
    failAttr(owner, name, `has "${key}" that is not a non-negative integer`);
  return v as number;
}

/** Compare two bounds exactly: biginteger bounds may exceed what a double holds. */
function compare(a: number | string, b: number | string): number {
  if (DIGITS.test(String(a)) && DIGITS.test(String(b))) {
    const [x, y] = [BigInt(a), BigInt(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a) - Number(b);
}

function checkNamesAreUnique(contentTypes: ContentType[]): void {
  // Singular and plural names share one pool: both become REST route segments.
  const names = new Map<string, { ct: ContentType; key: string }>();
  const tables = new Map<string, ContentType>();
  for (const ct of contentTypes) {
    for (const key of ['singularName', 'pluralName'] as const) {
      const value = ct.info[key];
      const prev = names.get(value);
      if (prev) fail(ct, `info.${key} "${value}" is already used as info.${prev.key} by ${where(prev.ct)}`);
      names.set(value, { ct, key });
    }
    const prev = tables.get(ct.collectionName);
    if (prev) fail(ct, `collectionName "${ct.collectionName}" is already used by ${where(prev)}`);
    tables.set(ct.collectionName, ct);
  }
}

/** A component reachable from itself would nest forever. */
function checkNotSelfContaining(root: Component, registry: Registry): void {
  const seen = new Set<string>();
  const visit = (uid: string, trail: string[], firstAttr: string | undefined): void => {
    const attrs = registry.components.get(uid)?.attributes ?? {};
    for (const [name, attr] of Object.entries(attrs)) {
      const children =
        attr.type === 'component' ? [attr.component] : attr.type === 'dynamiczone' ? attr.components : [];
      for (const child of children) {
        const path = [...trail, `${uid}.${name}`];
        if (child === root.uid) {
          failAttr(
            root,
            firstAttr ?? name,
            `makes component "${root.uid}" contain itself (${[...path, child].join(' -> ')})`,
          );
        }
        if (seen.has(child)) continue;
        seen.add(child);
        visit(child, path, firstAttr ?? name);
      }
    }
  };
  visit(root.uid, [], undefined);
}

function checkKebab(ct: ContentType, key: string, value: unknown): void {
  if (typeof value !== 'string' || value === '') fail(ct, `info.${key} is required`);
  if (!KEBAB.test(value)) fail(ct, `info.${key} "${value}" must be kebab-case (${KEBAB.source})`);
}

function checkTableName(owner: Schema, value: unknown, required: boolean): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || value === '') fail(owner, 'collectionName is required');
  if (!TABLE_NAME.test(value)) fail(owner, `collectionName "${value}" must match ${TABLE_NAME.source}`);
  if (value.length > MAX_TABLE_NAME)
    fail(owner, `collectionName "${value}" is longer than ${MAX_TABLE_NAME} characters`);
}

function indexByUid<T extends Schema>(schemas: T[], what: string): Map<string, T> {
  const map = new Map<string, T>();
  for (const schema of schemas) {
    const prev = map.get(schema.uid);
    if (prev) fail(schema, `${what} uid "${schema.uid}" is already declared by ${where(prev)}`);
    map.set(schema.uid, schema);
  }
  return map;
}

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
}

function where(schema: Schema): string {
  return schema.source || schema.uid;
}

function fail(schema: Schema, message: string): never {
  throw configurationError(`${where(schema)}: ${message}`);
}

function failAttr(schema: Schema, name: string, message: string): never {
  fail(schema, `attribute "${name}" ${message}`);
}
