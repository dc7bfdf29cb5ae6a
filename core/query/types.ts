/**
 * The one Query shape REST query strings and (later) GraphQL arguments are turned into.
 * It is already resolved against the registry: every name in it exists.
 */

import type { ScalarType } from '../content-types/types.ts';

/** The populatable key of localized types: the same document in its other locales. */
export const LOCALIZATIONS = 'localizations';

/**
 * What to populate under one key of a `PopulateTree`. The key is the output key, the name the
 * populated value gets in the answer; `attribute` names what it populates, the key itself when
 * unset (REST never sets it). GraphQL's aliases are keys of their own, so one attribute may be
 * populated twice with different options: each is a sub-select of its own.
 */
export interface PopulateNode {
  /** the attribute (or `localizations`) populated; defaults to the node's key */
  attribute?: string;
  /** nested populate of the related documents or component instances */
  populate?: PopulateTree;
  /** dynamic zones: per component uid, what to populate inside it; unlisted components are dropped */
  on?: Record<string, PopulateNode>;
  /** scalar attributes (and timestamps, locale) to show; all when unset; id and documentId always */
  fields?: string[];
  /**
   * Relations, multiple media and repeatable components (the last from code only: REST refuses
   * them there): which related documents, files or instances to include
   */
  filters?: FilterNode;
  /** the same lists' order (default: the stored order, or the owners' creation for inverse sides) */
  sort?: SortSpec[];
  /** to-many relations: answer `{ count }` instead of the documents */
  count?: boolean;
  /**
   * Lists (to-many relations, multiple media, repeatable components, dynamic zones,
   * `localizations`): only this window of the filtered, sorted list, cut in the sub-select
   * itself. The engine's, not REST's: REST refuses pagination inside populate, as Strapi 5 does.
   */
  pagination?: PopulatePagination;
  /**
   * Lists: answer `{ nodes: [...the (paginated) list], total: <how many match, filters applied,
   * pagination not> }` instead of the list (a GraphQL connection's nodes and pageInfo.total).
   */
  total?: boolean;
  /**
   * How each populated document or component instance is laid out (GraphQL's selection set);
   * REST's flat shape (`fields`, `populate`) when unset. A dynamic zone's items use `on[uid].layout`.
   */
  layout?: Layout;
  /**
   * Which versions the related documents are read in, here and below (GraphQL's nested
   * `publicationState`); the read's own status when unset.
   */
  status?: Status;
}

/**
 * A document or component instance laid out as an API other than REST shows it: the keys (a
 * GraphQL response's keys, aliases included) in order, each a constant, a field of the row or
 * instance, a nested object read from the same row, or a populated attribute. Built by the
 * caller (the GraphQL plugin), so PostgreSQL builds the answer in its final shape.
 */
export type Layout = LayoutEntry[];

export type LayoutEntry =
  /** a constant (GraphQL's `__typename`, or null for a field the caller may not read) */
  | { kind: 'value'; key: string; value: JsonValue }
  /**
   * A scalar attribute or a system field (`id`, `documentId`, `createdAt`, `updatedAt`,
   * `publishedAt`, `locale`; a component instance has `id` only). `text`: as a JSON string
   * (GraphQL's ID). `timestamp` attributes as stored (ISO), not REST's epoch milliseconds.
   */
  | { kind: 'field'; key: string; field: string; text?: boolean }
  /** an object read from the same row or instance (GraphQL's `attributes`, a relation's wrapper) */
  | { kind: 'object'; key: string; layout: Layout }
  /** a populated attribute (`node.attribute`, else the key), its items laid out by `node.layout` */
  | { kind: 'populate'; key: string; node: PopulateNode };

/** A window of a populated list: `start` items skipped, then at most `limit` (null: all the rest). */
export interface PopulatePagination {
  start: number;
  limit: number | null;
}

/** Output key → what to populate under it (the key is the attribute's name unless the node names another). */
export type PopulateTree = Record<string, PopulateNode>;

/** The attribute a populate node populates: its own `attribute`, else its key. */
export const attributeOf = (key: string, node: PopulateNode): string => node.attribute ?? key;

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
  /** root scalar fields to show (id and documentId always); all when unset */
  fields?: string[];
  filters?: FilterNode;
  sort?: SortSpec[];
  pagination: Pagination;
  status: Status;
  locale?: string;
  /** `_q`: a case-insensitive substring of the searchable columns (`search.ts`) */
  search?: string;
}

// ---------------------------------------------------------------------------------------
// Filters and sort, resolved against the registry.

/** Strapi's attribute-level operators (the logical ones, `$and $or $not`, become nodes). */
export const FILTER_OPERATORS = [
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$null',
  '$notNull',
  '$between',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operators whose value is matched as text, never cast to the attribute's type (as Strapi). */
export type TextOperator =
  | '$eqi'
  | '$nei'
  | '$contains'
  | '$notContains'
  | '$containsi'
  | '$notContainsi'
  | '$startsWith'
  | '$startsWithi'
  | '$endsWith'
  | '$endsWithi';

/** Columns every row has, by the name the API gives them. */
export type SystemField = 'id' | 'documentId' | 'locale' | 'createdAt' | 'updatedAt' | 'publishedAt';

/**
 * One scalar a filter or sort reads, relative to the row, related row or component instance
 * its node applies to: an attribute stored in `data`, or a column (on a component instance,
 * only `id`, which it stores in its JSON).
 */
export type FieldRef =
  /** `column`: the attribute's generated column on its content type's table (table-sql.ts `valueColumn`) */
  { kind: 'attribute'; name: string; type: ScalarType; column?: string } | { kind: 'system'; name: SystemField };

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
  | {
      type: 'condition';
      field: FieldRef;
      operator: '$eq' | '$ne' | '$lt' | '$lte' | '$gt' | '$gte';
      value: FilterValue;
    }
  | { type: 'condition'; field: FieldRef; operator: TextOperator; value: string }
  | { type: 'condition'; field: FieldRef; operator: '$in' | '$notIn'; value: FilterValue[] }
  | { type: 'condition'; field: FieldRef; operator: '$between'; value: [FilterValue, FilterValue] }
  | { type: 'condition'; field: FieldRef; operator: '$null' | '$notNull'; value: boolean };

/**
 * How a row reaches the documents (or files) one of its attributes relates it to. Relations
 * are stored on the owning side only, so an inverse side is found in the owners' data.
 * `toMany`: whether the step can reach several documents (sort aggregates them).
 */
export type RelationLink =
  /** documentIds in this row's `data[attribute]`: a string, or an ordered array when to-many */
  | { kind: 'owning'; toMany: boolean }
  /** the target rows hold this row's documentId in their `data[owner]` (an array when `ownerToMany`) */
  | { kind: 'inverse'; owner: string; ownerToMany: boolean; toMany: boolean }
  /** file ids (numbers) in this row's `data[attribute]` (an array when multiple), matching the files' `id` */
  | { kind: 'media'; toMany: boolean }
  /**
   * `localizations` of a localized type: the rows of the same table with this row's documentId
   * and another locale, in the read's status (any locale). Filters only: sort refuses it.
   */
  | { kind: 'localizations'; toMany: true };

/** A step through a relation or media attribute to the related documents (target: a content-type uid). */
export interface RelationStep {
  type: 'relation';
  attribute: string;
  target: string;
  link: RelationLink;
}

/** A step into the instance(s) of a component attribute, stored inside the row's `data`. */
export interface ComponentStep {
  type: 'component';
  attribute: string;
  component: string;
  repeatable: boolean;
}

/**
 * The resolved `filters` tree. Fields are relative to the row the enclosing node reads;
 * the deep nodes change that row: `relation` (any related document in the read's scope
 * matches `node`, compiled to EXISTS), `component` (the single instance, or any instance of a
 * repeatable one) and `dynamiczone` (any item whose component has a branch, matching it).
 */
export type FilterNode =
  | FilterCondition
  | { type: 'and'; nodes: FilterNode[] }
  | { type: 'or'; nodes: FilterNode[] }
  | { type: 'not'; node: FilterNode }
  | (RelationStep & { node: FilterNode })
  | (ComponentStep & { node: FilterNode })
  | DynamicZoneFilter
  /** in a dynamic zone item, a test on an attribute its component lacks: unknown (SQL NULL), never true */
  | { type: 'absent'; attribute: string };

/**
 * A filter on the items of a dynamic zone. Each branch is the filter resolved against one
 * allowed component having at least one attribute it names (tests on the others are
 * `absent`); items of other components never match.
 */
export interface DynamicZoneFilter {
  type: 'dynamiczone';
  attribute: string;
  branches: Array<{ component: string; node: FilterNode }>;
}

/**
 * One sort key: `field` of the row reached from the root through `path` (relations and
 * components; absent for a field of the root itself). Through a to-many step the value is
 * the smallest related one ascending, the largest descending.
 */
export interface SortSpec {
  field: FieldRef;
  order: 'asc' | 'desc';
  path?: Array<RelationStep | ComponentStep>;
}
