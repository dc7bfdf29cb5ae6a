/**
 * The one Query shape REST query strings and (later) GraphQL arguments are turned into.
 * It is already resolved against the registry: every name in it exists.
 */

import type { ScalarType } from '../content-types/types.ts';

/** The populatable key of localized types: the same document in its other locales. */
export const LOCALIZATIONS = 'localizations';

/** What to populate under one attribute. */
export interface PopulateNode {
  /** nested populate of the related documents or component instances */
  populate?: PopulateTree;
  /** dynamic zones: per component uid, what to populate inside it; unlisted components are dropped */
  on?: Record<string, PopulateNode>;
}

/** Attribute name → what to populate under it. */
export type PopulateTree = Record<string, PopulateNode>;

export interface Pagination {
  /** offset of the first row */
  start: number;
  /** maximum rows, or null for no limit */
  limit: number | null;
  /** how the client asked, so meta answers in the same style */
  style: 'page' | 'offset';
  withCount: boolean;
}

export type Status = 'published' | 'draft';

export interface Query {
  populate: PopulateTree;
  filters?: FilterNode;
  sort?: SortSpec[];
  pagination: Pagination;
  status: Status;
  locale?: string;
}

// ---------------------------------------------------------------------------------------
// Filters and sort, resolved against the registry.

/** Strapi's attribute-level operators (the logical ones, `$and $or $not`, become nodes). */
export const FILTER_OPERATORS = [
  '$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn',
  '$contains', '$notContains', '$containsi', '$notContainsi', '$null', '$notNull', '$between',
  '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operators whose value is matched as text, never cast to the attribute's type (as Strapi). */
export type TextOperator =
  | '$eqi' | '$nei' | '$contains' | '$notContains' | '$containsi' | '$notContainsi'
  | '$startsWith' | '$startsWithi' | '$endsWith' | '$endsWithi';

/** Columns every row has, by the name the API gives them. */
export type SystemField = 'id' | 'documentId' | 'locale' | 'createdAt' | 'updatedAt' | 'publishedAt';

/**
 * One scalar a filter or sort reads, relative to the row (or, later, the related row or
 * component instance) its node applies to: an attribute stored in `data`, or a column.
 */
export type FieldRef =
  | { kind: 'attribute'; name: string; type: ScalarType }
  | { kind: 'system'; name: SystemField };

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A value already cast to its field's type: a number for integer/float/decimal, a digit string
 * for biginteger, a boolean, an ISO string for dates and times, any JSON for json/blocks.
 */
export type FilterValue = JsonValue;

/**
 * A test on one field; the value's shape depends on the operator. Only `$eq`/`$ne` hold null
 * (IS NULL / IS NOT NULL).
 */
export type FilterCondition =
  | { type: 'condition'; field: FieldRef; operator: '$eq' | '$ne' | '$lt' | '$lte' | '$gt' | '$gte'; value: FilterValue }
  | { type: 'condition'; field: FieldRef; operator: TextOperator; value: string }
  | { type: 'condition'; field: FieldRef; operator: '$in' | '$notIn'; value: FilterValue[] }
  | { type: 'condition'; field: FieldRef; operator: '$between'; value: [FilterValue, FilterValue] }
  | { type: 'condition'; field: FieldRef; operator: '$null' | '$notNull'; value: boolean };

/**
 * The resolved `filters` tree. Fields are relative to the row the enclosing node reads, so
 * deep filters add nodes that change that row — `{ type: 'relation', attribute, target, node }`
 * (any related document matches, compiled to EXISTS), and likewise for components and dynamic
 * zones — without touching the leaves or the operators.
 */
export type FilterNode =
  | FilterCondition
  | { type: 'and'; nodes: FilterNode[] }
  | { type: 'or'; nodes: FilterNode[] }
  | { type: 'not'; node: FilterNode };

/**
 * One sort key. Relation sort will add the relation steps leading to `field` (a path from
 * the root), the field itself staying a FieldRef of the last content-type.
 */
export interface SortSpec {
  field: FieldRef;
  order: 'asc' | 'desc';
}
