/**
 * Filters and sorts may not reach through a relation the caller cannot `find`: the results
 * would reveal what the hidden documents hold (`filters[author][name][$eq]=Ann` answers "does
 * this article's author have that name"). Such a key is refused as an invalid key (400), as
 * Strapi 5's query validation does for restricted relations. Populate, where a hidden relation
 * is only left out, is `populate-access.ts`.
 */
import { configurationError, invalidQueryKey } from '../errors.ts';
import type { Registry } from '../content-types/registry.ts';
import type { FilterNode, PopulateTree, SortSpec } from '../query/types.ts';
import { findActionOf, prunePopulate } from './populate-access.ts';
import type { RequestAuth } from './types.ts';

type Allows = (action: string) => boolean;

function checkFilter(node: FilterNode | undefined, allows: Allows, path: string, param: string): void {
  if (!node) return;
  const at = (key: string): string => (path ? `${path}.${key}` : key);
  switch (node.type) {
    case 'and':
    case 'or':
      for (const n of node.nodes) checkFilter(n, allows, path, param);
      return;
    case 'not':
      checkFilter(node.node, allows, path, param);
      return;
    case 'relation':
      if (!allows(findActionOf(node.target))) throw invalidQueryKey(node.attribute, at(node.attribute), param);
      checkFilter(node.node, allows, at(node.attribute), param);
      return;
    case 'component':
      checkFilter(node.node, allows, at(node.attribute), param);
      return;
    case 'dynamiczone':
      for (const b of node.branches) checkFilter(b.node, allows, at(node.attribute), param);
      return;
    default:
      return;
  }
}

function checkSort(specs: SortSpec[] | undefined, allows: Allows, param: string): void {
  for (const s of specs ?? []) {
    const names: string[] = [];
    for (const step of s.path ?? []) {
      names.push(step.attribute);
      if (step.type === 'relation' && !allows(findActionOf(step.target))) {
        throw invalidQueryKey(step.attribute, names.join('.'), param);
      }
    }
  }
}

function checkPopulate(tree: PopulateTree | undefined, allows: Allows): void {
  for (const node of Object.values(tree ?? {})) {
    // reported as the parameter they were written in, as Strapi does
    checkFilter(node.filters, allows, '', 'populate');
    checkSort(node.sort, allows, 'populate');
    checkPopulate(node.populate, allows);
    for (const inner of Object.values(node.on ?? {})) checkPopulate(inner.populate, allows);
  }
}

/**
 * Throws a 400 when the query's filters or sort (at any populate level) pass through a relation
 * the caller may not read.
 */
export function assertQueryAccess(
  query: { filters?: FilterNode; sort?: SortSpec[]; populate?: PopulateTree },
  allows: Allows,
): void {
  checkFilter(query.filters, allows, '', 'filters');
  checkSort(query.sort, allows, 'sort');
  checkPopulate(query.populate, allows);
}

/**
 * A parsed query as the caller may run it: populated relations it may not `find` dropped,
 * then a 400 for filters or sorts through one. What every controller that reads documents for
 * a request calls (REST, the users and upload routes). Every route has auth state (the auth
 * plugin's, or an open API's that allows everything): a query without one comes from code that
 * forgot to pass it, and is refused rather than run as if everything were allowed.
 */
export function authorizeQuery<Q extends { filters?: FilterNode; sort?: SortSpec[]; populate?: PopulateTree }>(
  registry: Registry,
  uid: string,
  query: Q,
  auth: RequestAuth | undefined,
): Q {
  if (!auth) throw configurationError(`A query on ${uid} was authorized without auth state (ctx.state.auth)`);
  const allows = (action: string): boolean => auth.allows(action);
  // a populate the caller may not read is dropped with its own filters; what is left is checked
  const populate = prunePopulate(registry, uid, query.populate, allows);
  const out = populate === undefined ? query : { ...query, populate };
  assertQueryAccess(out, allows);
  return out;
}
