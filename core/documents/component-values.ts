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
    else if (attr.type === 'component' && attr.repeatable) out[name] = listValue(registry, attr.component, value, false);
    else if (attr.type === 'component') out[name] = value ? componentValue(registry, attr.component, value, false) : null;
    else out[name] = listValue(registry, null, value, true);
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
