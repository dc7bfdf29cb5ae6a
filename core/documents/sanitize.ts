import type { Registry } from '../content-types/registry.ts';
import { isPlainObject } from '../config/merge.ts';

type Obj = Record<string, unknown>;

/**
 * The content API cannot write private attributes (Strapi strips them from input, it does
 * not reject them); they stay writable through the document service.
 */
export function sanitizeInput(registry: Registry, uid: string, data: Obj, path: 'top' | 'nested' = 'top'): Obj {
  const out: Obj = {};
  const attributes = registry.attributesOf(uid);
  for (const [key, value] of Object.entries(data)) {
    const attr = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
    if (attr?.private) continue;
    // a document's locale is chosen by the `locale` parameter and cannot change: Strapi ignores it in bodies
    if (key === 'locale' && !attr && path === 'top') continue;
    if (attr && (attr.type === 'component' || attr.type === 'dynamiczone')) {
      const clean = (v: unknown): unknown => {
        if (!isPlainObject(v)) return v;
        const inner = attr.type === 'component' ? attr.component : v.__component;
        return typeof inner === 'string' && registry.hasComponent(inner)
          ? sanitizeInput(registry, inner, v, 'nested')
          : v;
      };
      out[key] = Array.isArray(value) ? value.map(clean) : clean(value);
      continue;
    }
    // defined, not assigned: a `__proto__` key must stay a plain key for validation to refuse
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
