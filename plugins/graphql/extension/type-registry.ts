/**
 * The `typeRegistry` an extension function receives (Strapi's): the generated types' names and
 * what each stands for, known before the schema is built so an extension can refer to them.
 */
import { isExposed } from '../schema/model.ts';
import * as n from '../naming.ts';
import type { Registry } from '../../../core/index.ts';
import type { TypeRegistry } from './service.ts';
import type { ShadowCrud } from './shadow-crud.ts';

/** `generated` false (`shadowCRUD: false`): nothing; a type `shadowCRUD(uid).disable()` turned off is left out. */
export function typeRegistryOf(registry: Registry, generated: boolean, shadow: ShadowCrud): TypeRegistry {
  const types = new Map<string, { name: string; kind: string; uid?: string }>();
  const add = (name: string, kind: string, uid: string) => types.set(name, { name, kind, uid });
  for (const ct of generated ? registry.contentTypes() : []) {
    if (!isExposed(ct) || shadow(ct.uid).isDisabled()) continue;
    const name = n.typeName(ct);
    add(name, 'content-type', ct.uid);
    add(n.entity(name), 'entity', ct.uid);
    add(n.entityResponse(name), 'entity-response', ct.uid);
    add(n.entityCollection(name), 'entity-response-collection', ct.uid);
    add(n.relationCollection(name), 'relation-response-collection', ct.uid);
    add(n.inputName(name), 'input', ct.uid);
    add(n.filtersName(name), 'filters', ct.uid);
  }
  for (const c of generated ? registry.components() : []) {
    if (shadow(c.uid).isEnabled()) add(n.componentName(c.uid), 'component', c.uid);
  }
  return { has: (name) => types.has(name), get: (name) => types.get(name) };
}
