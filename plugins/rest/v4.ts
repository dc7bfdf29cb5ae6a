import { FILE_UID, LOCALIZATIONS, type Registry, type RequestContext } from '../../core/index.ts';

type Obj = Record<string, unknown>;

/** Strapi 5 keeps Strapi 4's response shape for clients that send this header (facts §6). */
export const wantsV4 = (ctx: RequestContext): boolean =>
  ctx.get('strapi-response-format').trim().toLowerCase() === 'v4';

/** A document in Strapi 4's shape: `{id, documentId, attributes}`. */
export function toV4(registry: Registry, uid: string, doc: Obj): Obj {
  const { id, documentId, ...rest } = doc;
  return { id, documentId, attributes: attributes(registry, uid, rest) };
}

/** Relations and media are wrapped in `{data}`; a to-many one holds an array. */
function wrap(registry: Registry, uid: string, value: unknown): Obj {
  if (Array.isArray(value)) return { data: value.map((v) => toV4(registry, uid, v as Obj)) };
  return { data: value ? toV4(registry, uid, value as Obj) : null };
}

/** Components and dynamic-zone items are flattened to `{id, ...fields}` (no documentId). */
function component(registry: Registry, uid: string, value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const { documentId: _, ...rest } = value as Obj;
  return attributes(registry, uid, rest);
}

function attributes(registry: Registry, uid: string, obj: Obj): Obj {
  const attrs = registry.attributesOf(uid);
  const out: Obj = {};
  for (const [key, value] of Object.entries(obj)) {
    const attr = Object.hasOwn(attrs, key) ? attrs[key] : undefined;
    if (!attr) out[key] = key === LOCALIZATIONS ? wrap(registry, uid, value) : value;
    else if (attr.type === 'relation') out[key] = wrap(registry, attr.target, value);
    else if (attr.type === 'media') out[key] = wrap(registry, FILE_UID, value);
    else if (attr.type === 'component') {
      out[key] = Array.isArray(value)
        ? value.map((v) => component(registry, attr.component, v))
        : component(registry, attr.component, value);
    } else if (attr.type === 'dynamiczone') {
      out[key] = Array.isArray(value)
        ? value.map((v) => component(registry, String((v as Obj).__component), v))
        : value;
    } else out[key] = value;
  }
  return out;
}
