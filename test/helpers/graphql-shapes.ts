/**
 * The two GraphQL shapes a suite runs in (Strapi 4's entity shape, the default, and Strapi 5's flat
 * shape): each shape's config, query text from a shape-neutral description, and answers unwrapped
 * to one form, so a case is written once and asserts the same documents in both shapes.
 */

export const SHAPES = ['entity', 'flat'] as const;
export type Shape = (typeof SHAPES)[number];

/** The app config serving `shape`, with `graphql` config of the case's own. */
export function shapeConfig(shape: Shape, graphql: Record<string, unknown> = {}) {
  return { plugins: { graphql: { config: shape === 'flat' ? { ...graphql, shape: 'flat' } : graphql } } };
}

/** Query text in one shape. */
export interface ShapeQueries {
  shape: Shape;
  /** The field naming a document: `id` (the documentId) in the entity shape, `documentId` in the flat one. */
  id: string;
  /** Documents' selection (a list or a relation): `{ data { attributes { sel } } }` or `{ sel }`. */
  docs(sel: string, withId?: boolean): string;
  /** Selections at the document's level: `field(args) { data { inner } }` or `field(args) { inner }`. */
  entities(field: string, inner: string, args?: string): string;
  /** The documentIds of a list: `field(args) { data { id } }` or `field(args) { documentId }`. */
  ids(field: string, args?: string): string;
  /** The type a fragment on a document names: `ArticleEntity` or `Article`. */
  entityType(type: string): string;
  /** A root list: `articles(args) { data { attributes { sel } } }` or `articles(args) { sel }`. */
  list(field: string, sel: string, args?: string): string;
  /** One document by documentId: `article(id: "x")…` or `article(documentId: "x")…`. */
  one(field: string, documentId: string, sel: string, args?: string): string;
  /** The total of a root list: `meta { pagination { total } }` or `<field>_connection { pageInfo { total } }`. */
  total(field: string, args?: string): string;
  /** A root list's answer as documents (`{ id?, ...attributes }`), relations unwrapped too. */
  rows(answer: unknown): Record<string, unknown>[];
  /** An answer's `data` with every document unwrapped (as the flat shape answers). */
  data(data: unknown): any;
  /** The total of an answer's `data` for `field`, as `total(field)` asked it. */
  totalOf(data: Record<string, any>, field: string): number;
  /** The argument reading drafts: `publicationState: PREVIEW` or `status: DRAFT`. */
  preview: string;
  /**
   * A root list with its pagination in one field: `field(args) { data … meta { pagination { page } } }`
   * or `field_connection(args) { nodes { … } pageInfo { page } }`; no documents when `sel` is empty.
   */
  connection(field: string, sel: string, page: string, args?: string, withId?: boolean): string;
  /** The documents and pagination of `connection(field)`'s answer. */
  connectionOf(data: Record<string, any>, field: string): { rows: any[]; pagination: Record<string, unknown> };
}

const argList = (args?: string) => (args ? `(${args})` : '');

/** Turns the entity shape's wrapping (`{ data: … }`, `{ id, attributes }`) into the flat one's documents. */
export function unwrapEntity(value: unknown): any {
  if (Array.isArray(value)) return value.map(unwrapEntity);
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  if ('data' in o && (Array.isArray(o.data) || o.data === null || isEntity(o.data))) return unwrapEntity(o.data);
  if (isEntity(o)) {
    const { attributes, id, __typename, ...rest } = o;
    const doc: Record<string, unknown> = { ...rest };
    if (id !== undefined) doc.documentId = id;
    return { ...doc, ...(unwrapEntity(attributes) ?? {}) };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, unwrapEntity(v)]));
}

function isEntity(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && ('attributes' in v || 'id' in v);
}

/** Query text and answers for `shape`. */
export function shapeQueries(shape: Shape): ShapeQueries {
  if (shape === 'entity') {
    const docs = (sel: string, withId = false) => `{ data { ${withId ? 'id ' : ''}attributes { ${sel} } } }`;
    return {
      shape,
      id: 'id',
      docs,
      entities: (field, inner, args) => `${field}${argList(args)} { data { ${inner} } }`,
      ids: (field, args) => `${field}${argList(args)} { data { id } }`,
      entityType: (type) => `${type}Entity`,
      list: (field, sel, args) => `${field}${argList(args)} ${docs(sel)}`,
      one: (field, documentId, sel, args) =>
        `${field}(id: ${JSON.stringify(documentId)}${args ? `, ${args}` : ''}) ${docs(sel)}`,
      total: (field, args) => `${field}${argList(args)} { meta { pagination { total } } }`,
      rows: (answer) => unwrapEntity(answer),
      data: (data) => unwrapEntity(data),
      totalOf: (data, field) => data[field].meta.pagination.total,
      preview: 'publicationState: PREVIEW',
      connection: (field, sel, page, args, withId) =>
        `${field}${argList(args)} { ${sel ? docs(sel, withId).slice(2, -2) : ''} meta { pagination { ${page} } } }`,
      connectionOf: (data, field) => ({
        rows: unwrapEntity(data[field].data),
        pagination: data[field].meta.pagination,
      }),
    };
  }
  const docs = (sel: string, withId = false) => `{ ${withId ? 'documentId ' : ''}${sel} }`;
  return {
    shape,
    id: 'documentId',
    docs,
    entities: (field, inner, args) => `${field}${argList(args)} { ${inner} }`,
    ids: (field, args) => `${field}${argList(args)} { documentId }`,
    entityType: (type) => type,
    list: (field, sel, args) => `${field}${argList(args)} ${docs(sel)}`,
    one: (field, documentId, sel, args) =>
      `${field}(documentId: ${JSON.stringify(documentId)}${args ? `, ${args}` : ''}) ${docs(sel)}`,
    total: (field, args) => `${field}_connection${argList(args)} { pageInfo { total } }`,
    rows: (answer) => answer as Record<string, unknown>[],
    data: (data) => data,
    totalOf: (data, field) => data[`${field}_connection`].pageInfo.total,
    preview: 'status: DRAFT',
    connection: (field, sel, page, args, withId) =>
      `${field}_connection${argList(args)} { ${sel ? `nodes ${docs(sel, withId)}` : ''} pageInfo { ${page} } }`,
    connectionOf: (data, field) => ({
      rows: data[`${field}_connection`].nodes,
      pagination: data[`${field}_connection`].pageInfo,
    }),
  };
}
