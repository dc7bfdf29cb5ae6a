/**
 * The one Query shape REST query strings and (later) GraphQL arguments are turned into.
 * It is already resolved against the registry: every name in it exists.
 */

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
  pagination: Pagination;
  status: Status;
  locale?: string;
}
