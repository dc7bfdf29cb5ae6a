import { configurationError } from '../errors.ts';
import type { Attribute, Component, ContentType, MediaAttribute, RelationAttribute } from './types.ts';
import { validateSchemas } from './validate-schema.ts';

/** Where an inverse (`mappedBy`) relation is really stored: the owning attribute on the target. */
export interface OwningSide {
  uid: string;
  attribute: string;
  toMany: boolean;
}

/**
 * All content-types and components of one app. Plugins add to it during `register`;
 * the kernel then freezes it, which validates every schema together (relations and
 * components may point across plugins) and makes it read-only.
 */
export interface Registry {
  addContentType(ct: ContentType): void;
  addComponent(component: Component): void;
  freeze(): void;
  readonly frozen: boolean;
  contentType(uid: string): ContentType;
  hasContentType(uid: string): boolean;
  hasComponent(uid: string): boolean;
  component(uid: string): Component;
  contentTypes(): ContentType[];
  components(): Component[];
  /** The attributes of a content-type or component uid. */
  attributesOf(uid: string): Record<string, Attribute>;
  /** For an inverse relation attribute, the owning attribute on its target. */
  owningSide(attr: RelationAttribute): OwningSide | undefined;
  /** Every owning relation attribute (in content-types) that targets `uid`. */
  relationsTo(uid: string): Array<{ uid: string; attribute: string; attr: RelationAttribute }>;
  /**
   * Every top-level media attribute of a content-type (media inside components and dynamic
   * zones is not listed), known once the registry is frozen: what a deleted file is cleared from.
   */
  mediaAttributes(): ReadonlyArray<{ uid: string; attribute: string; attr: MediaAttribute }>;
}

/** Create an empty registry. */
export function createRegistry(): Registry {
  const contentTypes = new Map<string, ContentType>();
  const components = new Map<string, Component>();
  let frozen = false;
  const media: Array<{ uid: string; attribute: string; attr: MediaAttribute }> = [];

  const assertOpen = (what: string): void => {
    if (frozen) throw configurationError(`cannot add ${what}: the content-type registry is frozen after register()`);
  };

  const registry: Registry = {
    addContentType(ct) {
      assertOpen(ct.uid);
      if (contentTypes.has(ct.uid)) throw configurationError(`content-type ${ct.uid} is declared twice (${ct.source})`);
      contentTypes.set(ct.uid, ct);
    },
    addComponent(component) {
      assertOpen(component.uid);
      if (components.has(component.uid))
        throw configurationError(`component ${component.uid} is declared twice (${component.source})`);
      components.set(component.uid, component);
    },
    freeze() {
      if (frozen) return;
      validateSchemas([...contentTypes.values()], [...components.values()]);
      // listed once: the schemas cannot change any more, and every file delete reads this
      for (const ct of contentTypes.values()) {
        for (const [name, attr] of Object.entries(ct.attributes))
          if (attr.type === 'media') media.push({ uid: ct.uid, attribute: name, attr });
      }
      frozen = true;
    },
    get frozen() {
      return frozen;
    },
    contentType(uid) {
      const ct = contentTypes.get(uid);
      if (!ct) throw configurationError(`unknown content-type ${uid}`);
      return ct;
    },
    hasContentType: (uid) => contentTypes.has(uid),
    hasComponent: (uid) => components.has(uid),
    component(uid) {
      const c = components.get(uid);
      if (!c) throw configurationError(`unknown component ${uid}`);
      return c;
    },
    contentTypes: () => [...contentTypes.values()],
    components: () => [...components.values()],
    attributesOf(uid) {
      return (contentTypes.get(uid) ?? registry.component(uid)).attributes;
    },
    owningSide(attr) {
      if (!attr.mappedBy) return undefined;
      const owner = registry.contentType(attr.target).attributes[attr.mappedBy] as RelationAttribute;
      const toMany = owner.relation === 'oneToMany' || owner.relation === 'manyToMany';
      return { uid: attr.target, attribute: attr.mappedBy, toMany };
    },
    relationsTo(uid) {
      const out: Array<{ uid: string; attribute: string; attr: RelationAttribute }> = [];
      for (const ct of contentTypes.values()) {
        for (const [name, attr] of Object.entries(ct.attributes)) {
          if (attr.type === 'relation' && attr.target === uid && !attr.mappedBy)
            out.push({ uid: ct.uid, attribute: name, attr });
        }
      }
      return out;
    },
    mediaAttributes() {
      if (!frozen) throw configurationError('media attributes are known once the content-type registry is frozen');
      return media;
    },
  };
  return registry;
}
