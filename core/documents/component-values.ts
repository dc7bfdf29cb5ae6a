import type { Registry } from '../content-types/registry.ts';
import { isScalar } from '../content-types/types.ts';
import { isPlainObject } from '../config/merge.ts';

/**
 * A stored component instance as Strapi 5 shows it in the `value` of a validation error on its
 * list: its `id`, then every attribute in schema order (null when unset; nested components the
 * same way, repeatable ones as lists), and a dynamic-zone item's `__component` last. Passwords,
 * relations and media are left out: a hash or a documentId is not what the client sent.
 */
export function componentValue(registry: Registry, uid: string, stored: unknown, inZone: boolean): unknown {
  if (!isPlainObject(stored)) return stored ?? null;
  const out: Record<string, unknown> = { id: stored.id ?? null };
  for (const [name, attr] of Object.entries(registry.component(uid).attributes)) {
    const value = stored[name];
    if (attr.type === 'password' || attr.type === 'relation' || attr.type === 'media') continue;
    if (isScalar(attr)) out[name] = value ?? null;
    else if (attr.type !== 'component') out[name] = listValue(registry, null, value, true);
    else if (attr.repeatable) out[name] = listValue(registry, attr.component, value, false);
    else out[name] = value ? componentValue(registry, attr.component, value, false) : null;
  }
  if (inZone) out.__component = uid;
  return out;
}

/** A repeatable component's items (`uid`), or a dynamic zone's (`uid` null: each item names its own). */
export function listValue(registry: Registry, uid: string | null, items: unknown, inZone: boolean): unknown[] {
  if (!Array.isArray(items)) return [];
  return items.map((item) => {
    const of = uid ?? (isPlainObject(item) && typeof item.__component === 'string' ? item.__component : null);
    return of ? componentValue(registry, of, item, inZone) : item;
  });
}

/**
 * Items of a list being written, as Strapi shows them when it checks the input itself (a type
 * without draft & publish): what was sent, with the lists it defaults to `[]`, and no ids for
 * new instances, which have none yet.
 */
export function writtenListValue(registry: Registry, uid: string | null, items: unknown[]): unknown[] {
  return items.map((item) => {
    const of = uid ?? (isPlainObject(item) && typeof item.__component === 'string' ? item.__component : null);
    return of ? writtenValue(registry, of, item) : item;
  });
}

function writtenValue(registry: Registry, uid: string, item: unknown): unknown {
  if (!isPlainObject(item)) return item;
  const out: Record<string, unknown> = {};
  if (item.id !== null && item.id !== undefined) out.id = item.id;
  if (typeof item.__component === 'string') out.__component = item.__component;
  for (const [name, attr] of Object.entries(registry.component(uid).attributes)) {
    const value = item[name];
    if (attr.type === 'password') continue;
    const items = Array.isArray(value) ? value : [];
    // a list left out of a new instance defaults to [] unless it is required
    const listed = value !== undefined || !attr.required;
    if (attr.type === 'component' && attr.repeatable) {
      if (listed) out[name] = writtenListValue(registry, attr.component, items);
    } else if (attr.type === 'dynamiczone') {
      if (listed) out[name] = writtenListValue(registry, null, items);
    } else if (attr.type === 'component') {
      if (value !== undefined) out[name] = value === null ? null : writtenValue(registry, attr.component, value);
    } else if (value !== undefined) {
      out[name] = value;
    }
  }
  return out;
}
