import type { Knex } from 'knex';
import type { ContentType } from '../content-types/types.ts';
import type { FilterNode, Layout, Pagination, PopulateTree, SortSpec, Status } from '../query/types.ts';
import type { Doc } from './serialize.ts';

/** Every action of the document service, in one list (the `Action` type is read from it). */
export const ACTIONS = [
  'findMany',
  'findPage',
  'findOne',
  'findFirst',
  'count',
  'create',
  'update',
  'delete',
  'publish',
  'unpublish',
  'discardDraft',
] as const;

export type Action = (typeof ACTIONS)[number];

/** Actions that write: each runs in one transaction. */
export const WRITE_ACTIONS: ReadonlySet<Action> = new Set<Action>([
  'create',
  'update',
  'delete',
  'publish',
  'unpublish',
  'discardDraft',
]);

/** `'*'`: every locale (internal use: single-type lookups, deleting a whole document). */
export type LocaleParam = string | '*';

export interface ReadParams {
  populate?: PopulateTree;
  /** scalar fields to return (id and documentId always); all when unset */
  fields?: string[];
  /** lay each document out this way instead of REST's flat shape (`query/types.ts`; GraphQL's selection) */
  layout?: Layout;
  /**
   * Include private and password attributes (at every level, populated documents too). Left out
   * otherwise: a reader that forgets to ask cannot hand out hashes or tokens. Only internal
   * callers that check secrets (logins, API tokens, reset codes) ask for raw rows.
   */
  raw?: true;
  pagination?: Pagination;
  /** resolved filters (`resolveFilters`): applied by findMany, findFirst and count */
  filters?: FilterNode;
  /** `_q` (`core/query/search.ts`): findMany, findPage, findFirst and count */
  search?: string;
  /** resolved sort (`resolveSort`): findMany and findFirst; `id` breaks ties and orders otherwise */
  sort?: SortSpec[];
  /** which version: the Document Service's default is `draft`, as Strapi's (REST passes `published`) */
  status?: Status;
  locale?: LocaleParam;
  /**
   * findPage only: answer the page as the JSON text PostgreSQL built (`Page.json`, `results`
   * left empty) instead of parsed documents, for a caller that sends it on unchanged. Parsing
   * and re-serializing a page is most of what the Node process does for a list request.
   */
  json?: boolean;
}
export interface FindOneParams extends ReadParams {
  documentId: string;
}
export interface CreateParams extends ReadParams {
  data: Record<string, unknown>;
  /** create another version (a localization) of an existing document */
  documentId?: string;
  /** stored data the new row starts from (attributes shared with the document's other locales) */
  base?: Record<string, unknown>;
}
export interface UpdateParams extends ReadParams {
  documentId: string;
  data: Record<string, unknown>;
}
/** `raw`: the deleted entries with their private and password attributes (left out otherwise) */
export interface DeleteParams {
  documentId: string;
  locale?: LocaleParam;
  raw?: true;
}
export interface DeleteResult {
  documentId: string;
  entries: Doc[];
}
/** publish / unpublish / discardDraft of one document (in one locale, or every locale with '*') */
export interface VersionParams {
  documentId: string;
  locale?: LocaleParam;
  populate?: PopulateTree;
  fields?: string[];
  raw?: true;
}

export type ParamsOf = {
  findMany: ReadParams;
  findPage: ReadParams;
  findFirst: ReadParams;
  count: ReadParams;
  findOne: FindOneParams;
  create: CreateParams;
  update: UpdateParams;
  delete: DeleteParams;
  publish: VersionParams;
  unpublish: VersionParams;
  discardDraft: VersionParams;
};
export type ResultOf = {
  findMany: Doc[];
  findPage: Page;
  findFirst: Doc | null;
  count: number;
  findOne: Doc | null;
  create: Doc;
  update: Doc | null;
  delete: DeleteResult | null;
  publish: Doc | null;
  unpublish: Doc | null;
  discardDraft: Doc | null;
};

/** A page of documents and, when pagination asks for it, the total: what a list answers. */
export interface Page {
  results: Doc[];
  total: number | null;
  /** with `json: true`: the documents as one JSON array, as text */
  json?: string;
}

export interface DocumentApi {
  findMany(params?: ReadParams): Promise<Doc[]>;
  /** findMany and count in one statement */
  findPage(params?: ReadParams): Promise<Page>;
  findFirst(params?: ReadParams): Promise<Doc | null>;
  findOne(params: FindOneParams): Promise<Doc | null>;
  count(params?: ReadParams): Promise<number>;
  create(params: CreateParams): Promise<Doc>;
  update(params: UpdateParams): Promise<Doc | null>;
  delete(params: DeleteParams): Promise<DeleteResult | null>;
  /** copy the draft to the published version (replacing it) */
  publish(params: VersionParams): Promise<Doc | null>;
  /** remove the published version; the draft stays */
  unpublish(params: VersionParams): Promise<Doc | null>;
  /** replace the draft with the published version */
  discardDraft(params: VersionParams): Promise<Doc | null>;
}

/** What a document-service middleware sees of one action `A`; `db` is the call's transaction for writes. */
export interface ActionContext<A extends Action> {
  uid: string;
  contentType: ContentType;
  action: A;
  /** this call's own copy of the caller's params: middleware may rewrite it, the caller never sees that */
  params: ParamsOf[A];
  db: Knex;
  /** the document service inside this call's transaction, for middleware that composes actions */
  documents(uid: string): DocumentApi;
  /**
   * Run `fn` once the outermost transaction this call runs in commits (never when it rolls
   * back, and again only if a retried attempt commits); at once for a call outside any.
   */
  afterCommit(fn: AfterCommit): Promise<void>;
  /**
   * Set by a core write of a localized type once it knows, from the rows it read anyway: whether
   * the document has versions in other locales. false lets i18n skip copying to none.
   */
  otherLocales?: boolean;
  /**
   * The call changed rows of `uid` beyond the versions of the document it names: of document
   * `documentId`, or of documents it does not name (undefined). Bumped at commit with the rest,
   * so a kept answer that showed those rows is not served again (cache/document-keys.ts).
   */
  touch(uid: string, documentId?: string): Promise<void>;
}

/** `ActionContext.touch`. */
export type Touch = (uid: string, documentId?: string) => Promise<void>;

/**
 * The context of any action, discriminated by `action`: a middleware that checks
 * `ctx.action === 'update'` sees `UpdateParams`. What `next()` resolves to is then
 * `ResultOf[typeof ctx.action]` (`DocumentNext` for a helper handling one action).
 */
export type DocumentContext<A extends Action = Action> = { [K in A]: ActionContext<K> }[A];

/** The rest of the chain, then the core action, for action `A`. */
export type DocumentNext<A extends Action = Action> = () => Promise<ResultOf[A]>;

/**
 * Wraps every document-service call, Strapi-style: i18n, draft & publish and auth plug in here.
 * Calling `next` more than once is an error (the chain is koa-compose's).
 */
export type DocumentMiddleware = (ctx: DocumentContext, next: () => Promise<unknown>) => Promise<unknown>;

/** Work to do once a write is committed (dropping a cache of what it changed, say). */
export type AfterCommit = () => void | Promise<void>;

export interface DocumentService {
  (uid: string): DocumentApi;
  use(middleware: DocumentMiddleware): void;
  /**
   * Run several calls as one write: `work` gets the service bound to one transaction (and the
   * transaction itself); anything thrown rolls all of it back. A transaction PostgreSQL aborts
   * for a deadlock or a serialization failure runs again (a few times, then a 409), so `work`
   * must be safe to run again.
   */
  transaction<T>(work: (documents: (uid: string) => DocumentApi, trx: Knex.Transaction) => Promise<T>): Promise<T>;
  /**
   * Inside `trx`, wait for and then hold until it ends the lock every write to this document
   * takes (a single type's: its only document, whatever `documentId`), for a read-then-write
   * that must not interleave with another writer (a single type's first PUT, say).
   */
  lock(trx: Knex.Transaction, uid: string, documentId?: string): Promise<void>;
  /**
   * Run `fn` once `conn`'s outermost transaction commits: never on a rollback, and only for the
   * attempt that commits when a transaction is retried. `conn` is a middleware's `ctx.db` or a
   * `transaction()` body's `trx`; outside a transaction (`app.db`, a read's `ctx.db`) `fn` runs
   * at once. The call resolves once `fn` is queued (or has run); the write's caller gets its
   * answer only after every such `fn` has run, so a cache dropped here is stale for no request
   * the write answers.
   */
  afterCommit(conn: Knex, fn: AfterCommit): Promise<void>;
}
