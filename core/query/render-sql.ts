/**
 * Every document row keeps its own fields' JSON text, as a read without `fields` shows them to
 * anyone (private and password attributes left out), in a column a trigger writes with the row
 * (database/sync.ts). A list answer is then mostly these texts joined: building the JSON of 25
 * articles' scalars took PostgreSQL 0.5 of the 0.6 ms the whole read cost, and joining the kept
 * texts takes a tenth of that. Populated keys are spliced in after the row's own, where a built
 * object puts them.
 */
import { createHash } from 'node:crypto';
import type { Registry } from '../content-types/registry.ts';
import type { ContentType } from '../content-types/types.ts';
import { attributeOf, type PopulateNode } from './types.ts';
import {
  documentJson,
  object,
  ownPairs,
  plainPartJson,
  populatedPairs,
  type SelectContext,
  type Shape,
} from './populate-sql.ts';
import { fragment as frag, joinFragments as join, lit, qualified, type SqlFragment as Frag } from './sql.ts';

/** The column holding a row's rendered JSON text (`:` is in no attribute's name, so no value column takes it). */
export const RENDERED = 'v:doc';

/**
 * What a row's render is computed from, over the row `alias` (the trigger's `new`): the JSON a
 * read with no `fields` builds for it, as text. It holds no bind parameters (names are literals).
 */
export function renderExpression(ct: ContentType, alias = 'new'): string {
  const built = object(ownPairs(true, ct, alias));
  if (built.bindings.length > 0) throw new Error(`the render of ${ct.uid} would need bind parameters`);
  return `(${built.sql})::text`;
}

/**
 * The column holding a row's kept renders of its components and dynamic zones (`partNames`, in
 * that order, 1-based), each as a read populating it with nothing more shows it: a `populate=*`
 * page spliced them from the row instead of building 25 SEO components and a hundred zone items
 * from `data` on every read.
 */
export const PARTS = 'v:parts';

/** The component and dynamic zone attributes a row keeps a render of: every public one, in schema order. */
export const partNames = (ct: ContentType): string[] =>
  Object.entries(ct.attributes)
    .filter(([, attr]) => (attr.type === 'component' || attr.type === 'dynamiczone') && attr.private !== true)
    .map(([name]) => name);

/** What a row's part renders are computed from (over the trigger's `new`); null when it has no parts. */
export function partsExpression(registry: Registry, ct: ContentType, alias = 'new'): string | null {
  const names = partNames(ct);
  if (names.length === 0) return null;
  const items = names.map((name) => {
    const built = plainPartJson(registry, ct, alias, name);
    if (built.bindings.length > 0) throw new Error(`the render of ${ct.uid}.${name} would need bind parameters`);
    return `COALESCE((${built.sql})::text, 'null')`;
  });
  return `ARRAY[${items.join(', ')}]::text[]`;
}

/**
 * The column holding which render a row's kept texts are (`renderVersion`), set by the same trigger.
 * A read takes a kept text only from a row of the current version and builds the others, so a
 * schema change that alters the render needs no rewrite of every row before the app serves: the
 * rows are rendered again in the background (database/rerender.ts), and until then read built.
 */
export const RENDER_VERSION = 'v:rv';

/**
 * The version of `ct`'s render: 31 bits of a hash of what it is computed from (the row's own JSON
 * and its parts). Two schemas that render a row alike share it, so a restart renders nothing again.
 */
export const renderVersion = (registry: Registry, ct: ContentType): number =>
  versionOf(renderExpression(ct), partsExpression(registry, ct));

/** The version of a render whose expressions are `expression` and `parts` (`renderVersion`). */
export function versionOf(expression: string, parts: string | null): number {
  return (
    createHash('sha1')
      .update(`${expression}\n${parts ?? ''}`)
      .digest()
      .readUInt32BE(0) >>> 1
  );
}

/**
 * `renderVersion` of each content type of an app's `registry`, worked out once per type: a read
 * built on every request (a filtered one) would otherwise build both expressions again to check.
 */
export function createRenderVersions(registry: Registry): (ct: ContentType) => number {
  const versions = new Map<string, number>();
  return (ct) => {
    let v = versions.get(ct.uid);
    if (v === undefined) {
      v = renderVersion(registry, ct);
      versions.set(ct.uid, v);
    }
    return v;
  };
}

/** `column` of the row under `alias` when its render is the current one, else null. */
const current = (ctx: SelectContext, ct: ContentType, alias: string, column: string): string => {
  const version = ctx.renderVersion?.(ct) ?? renderVersion(ctx.registry, ct);
  return `CASE WHEN ${qualified(alias, RENDER_VERSION)} = ${version} THEN ${column} END`;
};

/** Whether a populate node asks for a part as it is kept: nothing more than the attribute itself. */
function plain(key: string, node: PopulateNode): boolean {
  const { attribute, ...rest } = node;
  return attributeOf(key, { ...rest, attribute }) === key && Object.values(rest).every((v) => v === undefined);
}

/** Whether a read shows what a row's render holds: every public field (no `fields`, no other layout). */
export const showsRender = (ctx: Pick<SelectContext, 'redact'>, shape: Shape): boolean =>
  ctx.redact && shape.fields === undefined && shape.layout === undefined;

/**
 * The JSON text of a document row under `alias`, as `documentJson` builds it: from the kept
 * render when the read shows what it holds (every public field), else built.
 */
export function documentText(ctx: SelectContext, ct: ContentType, alias: string, shape: Shape): Frag {
  if (!showsRender(ctx, shape)) {
    const built = documentJson(ctx, ct, alias, shape);
    return frag(`(${built.sql})::text`, built.bindings);
  }
  // a row of another render (the schema changed; not rendered again yet), or written while the trigger
  // was off (`session_replication_role = replica`), may have none: built then
  const own = `COALESCE(${current(ctx, ct, alias, qualified(alias, RENDERED))}, ${renderExpression(ct, alias)})`;
  const parts = partNames(ct);
  const pairs = populatedPairs(ctx, ct, alias, shape).map(([key, value]): [string, Frag] => {
    const at = parts.indexOf(key);
    if (at < 0 || !plain(key, shape.populate![key])) return [key, value];
    // a row without kept parts (written with the trigger off) builds it
    const kept = current(ctx, ct, alias, `${qualified(alias, PARTS)}[${at + 1}]`);
    return [key, frag(`COALESCE(${kept}, (${value.sql})::text)`, value.bindings)];
  });
  if (pairs.length === 0) return frag(own);
  const spliced = join(
    pairs.map(([key, value]) =>
      frag(`${lit(`, ${JSON.stringify(key)} : `)} || COALESCE((${value.sql})::text, 'null')`, value.bindings),
    ),
    ' || ',
  );
  // the render without its closing brace: it ends with a timestamp or the locale (a string or null), so
  // rtrim takes exactly one `}`; left(…, -1) counted every character of it first (0.1 ms a page)
  return frag(`rtrim(${own}, '}') || ${spliced.sql} || '}'`, spliced.bindings);
}
