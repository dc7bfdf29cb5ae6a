/**
 * The content types a read depends on, from its parsed query (REST) or plan (GraphQL): the root,
 * every populated target (relations, media → upload files, inside components and dynamic zones,
 * nested), and every target a filter or sort goes through. Components live in their owner's row,
 * so they add nothing of their own. An attribute that cannot be resolved makes the read
 * uncacheable (null) rather than risk a missing dependency.
 */
import type { Registry } from '../content-types/registry.ts';
import { FILE_UID } from '../content-types/types.ts';
import {
  attributeOf,
  type FilterNode,
  type Layout,
  LOCALIZATIONS,
  type PopulateNode,
  type PopulateTree,
  type SortSpec,
} from '../query/types.ts';

/** What of a read names other content types. */
export interface ReadShape {
  populate?: PopulateTree;
  layout?: Layout;
  filters?: FilterNode;
  sort?: SortSpec[];
}

class Unresolved extends Error {}

/**
 * The uids a read of `uid` shaped so depends on, or null when unsure: the root included unless
 * `root` is false (then it is there only when a populated, filtered or sorted path reaches it).
 */
export function readDependencies(registry: Registry, uid: string, shape: ReadShape, root = true): Set<string> | null {
  const out = new Set<string>(root ? [uid] : []);

  function filter(node: FilterNode | undefined): void {
    if (!node) return;
    switch (node.type) {
      case 'and':
      case 'or':
        for (const n of node.nodes) filter(n);
        return;
      case 'not':
        filter(node.node);
        return;
      case 'relation':
        out.add(node.target);
        filter(node.node);
        return;
      case 'component':
        filter(node.node);
        return;
      case 'dynamiczone':
        for (const b of node.branches) filter(b.node);
        return;
      default:
        return;
    }
  }

  function sort(specs: SortSpec[] | undefined): void {
    for (const s of specs ?? []) for (const step of s.path ?? []) if (step.type === 'relation') out.add(step.target);
  }

  /** What `node` (populating attribute `name` of `owner`, a content type or component) reads. */
  function populated(owner: string, name: string, node: PopulateNode): void {
    if (name === LOCALIZATIONS) {
      nested(owner, node);
      return;
    }
    const attr = registry.attributesOf(owner)[name];
    if (!attr) throw new Unresolved(`${owner}.${name}`);
    switch (attr.type) {
      case 'relation':
        out.add(attr.target);
        nested(attr.target, node);
        return;
      case 'media':
        out.add(FILE_UID);
        nested(FILE_UID, node);
        return;
      case 'component':
        nested(attr.component, node);
        return;
      case 'dynamiczone':
        for (const [component, sub] of Object.entries(node.on ?? {})) nested(component, sub);
        // a zone's own `populate` applies to each component that has the attribute it names
        for (const component of attr.components) {
          for (const [key, sub] of Object.entries(node.populate ?? {})) {
            const inner = attributeOf(key, sub);
            if (registry.attributesOf(component)[inner]) populated(component, inner, sub);
          }
        }
        return;
      default:
        throw new Unresolved(`${owner}.${name}`);
    }
  }

  function nested(owner: string, node: PopulateNode): void {
    tree(owner, node.populate);
    layout(owner, node.layout);
    filter(node.filters);
    sort(node.sort);
  }

  function tree(owner: string, populate: PopulateTree | undefined): void {
    for (const [key, node] of Object.entries(populate ?? {})) populated(owner, attributeOf(key, node), node);
  }

  function layout(owner: string, entries: Layout | undefined): void {
    for (const e of entries ?? []) {
      if (e.kind === 'object') layout(owner, e.layout);
      else if (e.kind === 'populate') populated(owner, attributeOf(e.key, e.node), e.node);
    }
  }

  try {
    tree(uid, shape.populate);
    layout(uid, shape.layout);
    filter(shape.filters);
    sort(shape.sort);
  } catch (err) {
    if (err instanceof Unresolved) return null;
    throw err;
  }
  return out;
}
