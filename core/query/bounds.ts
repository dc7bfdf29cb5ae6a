/**
 * Bounds on what one request's query may ask of the database. Filters and sorts through
 * relations compile to SQL whose cost grows linearly with their depth (filters-deep-sql.ts,
 * sort-sql.ts), but each level still reads a table: a caller with only `find` could otherwise
 * send a filter through fifty relations, or a thousand conditions, and keep a connection busy
 * for everyone else. Strapi sets no such bounds; the defaults are far above what a frontend
 * sends (three or four levels, a few dozen conditions).
 */
import { validationError } from '../errors.ts';
import type { FilterNode, PopulateTree, SortSpec } from './types.ts';

export interface QueryLimits {
  /**
   * relations, media, components and dynamic zones one filter or sort path may go through
   * (`api.rest.maxQueryDepth`)
   */
  maxDepth: number;
  /** conditions in one request's filters, populate filters included (`api.rest.maxQueryConditions`) */
  maxConditions: number;
}

export const DEFAULT_QUERY_LIMITS: Readonly<QueryLimits> = Object.freeze({ maxDepth: 10, maxConditions: 200 });

/** How deep a filter tree goes through attributes, and how many conditions it holds. */
interface Size {
  depth: number;
  conditions: number;
}

function sizeOf(node: FilterNode): Size {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.nodes
        .map(sizeOf)
        .reduce((a, b) => ({ depth: Math.max(a.depth, b.depth), conditions: a.conditions + b.conditions }));
    case 'not':
      return sizeOf(node.node);
    case 'relation':
    case 'component': {
      const inner = sizeOf(node.node);
      return { depth: inner.depth + 1, conditions: inner.conditions };
    }
    case 'dynamiczone': {
      // every branch is compiled: its conditions all count
      const branches = node.branches.map((b) => sizeOf(b.node));
      return {
        depth: 1 + Math.max(0, ...branches.map((b) => b.depth)),
        conditions: branches.reduce((n, b) => n + b.conditions, 0),
      };
    }
    default:
      return { depth: 0, conditions: 1 };
  }
}

const tooDeep = (param: string, limits: QueryLimits) =>
  validationError(
    `${param} may go through at most ${limits.maxDepth} relations, components or dynamic zones ` +
      '(api.rest.maxQueryDepth)',
    { key: param, source: 'query', param, limit: limits.maxDepth },
  );

/** Refuse (400, naming the limit) a query whose filters or sorts, at any populate level, exceed `limits`. */
export function checkQueryLimits(
  query: { filters?: FilterNode; sort?: SortSpec[]; populate?: PopulateTree },
  limits: QueryLimits,
): void {
  let conditions = 0;
  const visit = (q: { filters?: FilterNode; sort?: SortSpec[]; populate?: PopulateTree }): void => {
    if (q.filters) {
      const size = sizeOf(q.filters);
      if (size.depth > limits.maxDepth) throw tooDeep('filters', limits);
      conditions += size.conditions;
    }
    for (const s of q.sort ?? []) if ((s.path?.length ?? 0) > limits.maxDepth) throw tooDeep('sort', limits);
    for (const node of Object.values(q.populate ?? {})) {
      visit(node);
      for (const branch of Object.values(node.on ?? {})) visit(branch);
    }
  };
  visit(query);
  if (conditions > limits.maxConditions) {
    throw validationError(`filters may hold at most ${limits.maxConditions} conditions (api.rest.maxQueryConditions)`, {
      key: 'filters',
      source: 'query',
      param: 'filters',
      limit: limits.maxConditions,
    });
  }
}
