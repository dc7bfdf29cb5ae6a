/**
 * A mutation's `data` as the document service takes it: Strapi 4's `publishedAt` taken out (it
 * chooses publish or unpublish, see resolve.ts), dynamic-zone items' `__typename` turned into
 * `__component`, and private attributes dropped as REST drops them.
 */
import { applicationError, type Registry, sanitizeInput } from '../../../core/index.ts';
import { componentName } from '../naming.ts';
import type { SchemaModel } from '../schema/model.ts';

type Obj = Record<string, unknown>;

/** `publishedAt` as sent: absent, null (unpublish) or a value (publish). */
export type Publication = 'absent' | 'null' | 'set';

export interface WriteInput {
  data: Obj;
  publication: Publication;
}

/** A dynamic zone's items, `__typename: "ComponentSharedQuote"` → `__component: "shared.quote"`. */
function dynamicZoneItems(model: SchemaModel, allowed: string[], value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const { __typename: typename, ...rest } = item as Obj;
    const role = typeof typename === 'string' ? model.roles.get(typename) : undefined;
    // Strapi 4's message (`builders/dynamic-zones.js`), listing the type names it accepts
    if (role?.kind !== 'component' || !allowed.includes(role.uid)) {
      throw applicationError(`Component not found. expected one of: ${allowed.map(componentName).join(', ')}`);
    }
    return { __component: role.uid, ...rest };
  });
}

export function writeInput(registry: Registry, model: SchemaModel, uid: string, raw: unknown): WriteInput {
  const input: Obj = raw !== null && typeof raw === 'object' ? { ...(raw as Obj) } : {};
  const publication: Publication = !('publishedAt' in input) ? 'absent' : input.publishedAt === null ? 'null' : 'set';
  delete input.publishedAt;
  for (const [name, attr] of Object.entries(registry.attributesOf(uid))) {
    if (attr.type === 'dynamiczone' && name in input) {
      input[name] = dynamicZoneItems(model, attr.components, input[name]);
    }
  }
  return { data: sanitizeInput(registry, uid, input), publication };
}
