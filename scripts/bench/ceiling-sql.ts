/**
 * The ceiling's one statement: `GET /api/articles?populate=*&sort=title:asc` (the first 25 published
 * `en` articles by title, each with author, tags, cover, gallery, seo, blocks and localizations one level
 * deep, plus `meta.pagination`) built entirely in PostgreSQL as JSON text. It is written by
 * hand for the blog schema (every field listed, no registry, no query parsing), so it is
 * what a request costs when nothing but the database works: no server can do much better.
 * json_build_object rather than jsonb: it keeps keys in the order Vellum prints them.
 */

const PAGE_SIZE = 25;
/** `sort=title:asc`, ties by age, as Vellum orders a page. */
const BY_TITLE = (alias: string): string => `${alias}."v$title", ${alias}.id`;
const LOCALE = 'en';

/** Timestamps as the API prints them: ISO 8601, milliseconds, UTC. */
const ts = (col: string): string => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** id, documentId, the listed attributes from `data`, then the timestamps (and locale when localized). */
function doc(alias: string, fields: string[], localized = false): string {
  const pairs = [`'id', ${alias}.id`, `'documentId', ${alias}.document_id`];
  for (const f of fields) pairs.push(`'${f}', ${alias}.data -> '${f}'`);
  pairs.push(
    `'createdAt', ${ts(`${alias}.created_at`)}`,
    `'updatedAt', ${ts(`${alias}.updated_at`)}`,
    `'publishedAt', ${ts(`${alias}.published_at`)}`,
  );
  if (localized) pairs.push(`'locale', ${alias}.locale`);
  return `json_build_object(${pairs.join(', ')})`;
}

/** A component instance stored in `expr` (jsonb): __component for zone items, id, documentId, its scalars. */
function component(expr: string, fields: string[], zone = false): string {
  const pairs = zone ? [`'__component', ${expr} -> '__component'`] : [];
  pairs.push(`'id', ${expr} -> 'id'`, `'documentId', ${expr} -> 'documentId'`);
  for (const f of fields) pairs.push(`'${f}', ${expr} -> '${f}'`);
  return `json_build_object(${pairs.join(', ')})`;
}

// scalar attributes in schema order; private ones (internalNotes, folderPath) never leave the server
const ARTICLE = [
  'title',
  'slug',
  'summary',
  'body',
  'views',
  'rating',
  'price',
  'isFeatured',
  'publishDate',
  'readingTime',
  'meta',
  'category',
  'contactEmail',
];
const AUTHOR = ['name', 'email', 'bio'];
const TAG = ['name'];
const FILE = [
  'name',
  'alternativeText',
  'caption',
  'focalPoint',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
];

const published = (alias: string): string => `${alias}.published_at IS NOT NULL`;

/** The page's references in `attr` (a documentId or file id, or an array of them), as text. */
const refs = (attr: string): string =>
  `SELECT r FROM page p, jsonb_array_elements_text(CASE jsonb_typeof(p.data -> '${attr}') ` +
  `WHEN 'array' THEN p.data -> '${attr}' ELSE jsonb_build_array(p.data -> '${attr}') END) r`;

/** A list of referenced documents from `docs` (a CTE keyed by `ref`), in the order of the jsonb array `ids`. */
const listOf = (docs: string, ids: string): string =>
  'coalesce((SELECT json_agg(d.doc ORDER BY r.ord) ' +
  `FROM jsonb_array_elements_text(${ids}) WITH ORDINALITY r(ref, ord) JOIN ${docs} d ON d.ref = r.ref), '[]'::json)`;

const blocks = (zone: string): string => `coalesce((SELECT json_agg(CASE b.item ->> '__component'
      WHEN 'shared.rich-text' THEN ${component('b.item', ['body'], true)}
      WHEN 'shared.quote' THEN ${component('b.item', ['title', 'body'], true)}
      ELSE ${component('b.item', [], true)} END ORDER BY b.ord)
    FROM jsonb_array_elements(${zone}) WITH ORDINALITY b(item, ord)), '[]'::json)`;

/**
 * The statement (no parameters). Two things keep it fast, as a careful hand would write it:
 * the page's `data` is detoasted once (\`|| '{}'\` in a materialized CTE) instead of once per
 * `->`, and each referenced author, tag and file is rendered once per request, not once per
 * reference (a page of 25 articles refers to 6 files 75 times).
 */
export function ceilingSql(): string {
  const article = doc('p', ARTICLE, true).slice(0, -1); // reopened below to append the populated keys
  const seo = component(`(p.data -> 'seo')`, ['metaTitle', 'metaDescription']);
  const pagination =
    `json_build_object('page', 1, 'pageSize', ${PAGE_SIZE}, ` +
    `'pageCount', ceil(n / ${PAGE_SIZE}.0)::int, 'total', n)`;
  return `WITH page AS MATERIALIZED (
  SELECT a.id, a.document_id, a.locale, a.created_at, a.updated_at, a.published_at, a."v$title",
    a.data || '{}'::jsonb AS data
  FROM (SELECT * FROM articles a WHERE ${published('a')} AND a.locale = '${LOCALE}'
    ORDER BY ${BY_TITLE('a')} LIMIT ${PAGE_SIZE}) a
), authors_docs AS MATERIALIZED (
  SELECT DISTINCT ON (u.document_id) u.document_id AS ref, ${doc('u', AUTHOR)} AS doc FROM authors u
  WHERE ${published('u')} AND u.document_id IN (${refs('author')}) ORDER BY u.document_id, u.id
), tags_docs AS MATERIALIZED (
  SELECT DISTINCT ON (t.document_id) t.document_id AS ref, ${doc('t', TAG)} AS doc FROM tags t
  WHERE ${published('t')} AND t.document_id IN (${refs('tags')}) ORDER BY t.document_id, t.id
), files_docs AS MATERIALIZED (
  SELECT f.id::text AS ref, ${doc('f', FILE)} AS doc FROM files f
  WHERE f.id::text IN (${refs('cover')} UNION ALL ${refs('gallery')})
), total AS (
  SELECT count(*)::int AS n FROM articles a WHERE ${published('a')} AND a.locale = '${LOCALE}'
)
SELECT json_build_object(
  'data', coalesce((SELECT json_agg(${article},
    'author', (SELECT d.doc FROM authors_docs d WHERE d.ref = p.data ->> 'author'),
    'tags', ${listOf('tags_docs', `p.data -> 'tags'`)},
    'cover', (SELECT d.doc FROM files_docs d WHERE d.ref = p.data ->> 'cover'),
    'gallery', ${listOf('files_docs', `p.data -> 'gallery'`)},
    'seo', CASE WHEN jsonb_typeof(p.data -> 'seo') = 'object' THEN ${seo} END,
    'blocks', ${blocks(`p.data -> 'blocks'`)},
    'localizations', coalesce((SELECT json_agg(${doc('l', ARTICLE, true)} ORDER BY l.id) FROM articles l
      WHERE l.document_id = p.document_id AND ${published('l')} AND l.locale IS DISTINCT FROM p.locale), '[]'::json)
  ) ORDER BY ${BY_TITLE('p')}) FROM page p), '[]'::json),
  'meta', (SELECT json_build_object('pagination', ${pagination}) FROM total)
)::text AS body`;
}
