import type { Registry } from '../content-types/registry.ts';
import { FILE_UID, type Attribute, type Attributes } from '../content-types/types.ts';
import { isPlainObject } from '../config/merge.ts';

type Obj = Record<string, unknown>;

const hidden = (attr: Attribute): boolean => attr.private === true || attr.type === 'password';

function nestedUid(attr: Attribute, value: Obj): string | undefined {
  switch (attr.type) {
    case 'relation': return attr.target;
    case 'media': return FILE_UID;
    case 'component': return attr.component;
    case 'dynamiczone': return typeof value.__component === 'string' ? value.__component : undefined;
    default: return undefined;
  }
}

function each(value: unknown, fn: (o: Obj) => void): void {
  if (Array.isArray(value)) value.forEach((v) => isPlainObject(v) && fn(v));
  else if (isPlainObject(value)) fn(value);
}

/**
 * Remove private and password attributes from a document about to leave the server, at
 * every level: populated relations, media, components and dynamic zones. Mutates in place.
 */
export function sanitizeOutput(registry: Registry, uid: string, doc: Obj): Obj {
  const attributes: Attributes = registry.hasContentType(uid) || registry.hasComponent(uid) ? registry.attributesOf(uid) : {};
  for (const [name, attr] of Object.entries(attributes)) {
    if (!Object.hasOwn(doc, name)) continue;
    if (hidden(attr)) {
      delete doc[name];
      continue;
    }
    each(doc[name], (child) => {
      const inner = nestedUid(attr, child);
      if (inner) sanitizeOutput(registry, inner, child);
    });
  }
  return doc;
}

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
        return typeof inner === 'string' && registry.hasComponent(inner) ? sanitizeInput(registry, inner, v, 'nested') : v;
      };
      out[key] = Array.isArray(value) ? value.map(clean) : clean(value);
      continue;
    }
    // defined, not assigned: a `__proto__` key must stay a plain key for validation to refuse
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
