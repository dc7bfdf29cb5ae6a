import type { Registry } from '../content-types/registry.ts';
import type { Attributes } from '../content-types/types.ts';
import { isPlainObject } from '../config/merge.ts';

/**
 * A copy of a version's data for another version (publish, discard-draft) in which every component
 * instance is a new one, as in Strapi 5, where each version owns its components: an id read from
 * the published version names nothing in the draft. The copies are returned with `id: null`, to
 * be given ids from the sequence; their documentIds stay, as a document's do across versions.
 */
export function copyComponents(
  registry: Registry,
  attributes: Attributes,
  data: Record<string, unknown>,
): { data: Record<string, unknown>; fresh: Array<Record<string, unknown>> } {
  const fresh: Array<Record<string, unknown>> = [];
  const copyInstance = (uid: string, value: unknown): unknown => {
    if (!isPlainObject(value)) return value;
    const out = copyObject(registry.component(uid).attributes, value);
    out.id = null;
    fresh.push(out);
    return out;
  };
  const copyObject = (attrs: Attributes, value: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...value };
    for (const [name, attr] of Object.entries(attrs)) {
      const v = value[name];
      if (attr.type === 'component' && attr.repeatable && Array.isArray(v)) {
        out[name] = v.map((i) => copyInstance(attr.component, i));
      } else if (attr.type === 'component' && !attr.repeatable) {
        out[name] = copyInstance(attr.component, v);
      } else if (attr.type === 'dynamiczone' && Array.isArray(v)) {
        out[name] = v.map((i) =>
          isPlainObject(i) && typeof i.__component === 'string' ? copyInstance(i.__component, i) : i,
        );
      }
    }
    return out;
  };
  return { data: copyObject(attributes, data), fresh };
}
