/**
 * Compiling the deep filter nodes. A relation matches when ANY related document (in the
 * read's scope) matches; it compiles to a membership test against the set of matching
 * targets, a subquery that does not depend on the outer row:
 *
 *   "r"."data" @> ANY (ARRAY(SELECT jsonb_build_object('tags', jsonb_build_array("_vf1"."document_id"))
 *                            FROM "tags" AS "_vf1" WHERE <scope> AND <condition>))       owning side
 *   "r"."id" IN (SELECT "_vf1_l"."row_id" FROM "tags" AS "_vf1", <r's link table> AS "_vf1_l"
 *                WHERE <scope> AND "_vf1_l"."attribute" = 'tags' AND "_vf1_l"."target" = "_vf1"."document_id"
 *                AND <condition>)                       owning side, link tables (`links`: links-sql.ts)
 *   "r"."document_id" IN (SELECT <owner's ids> FROM "articles" AS "_vf1" WHERE <scope> AND <condition>)   inverse side
 *
 * PostgreSQL runs each such subquery once per statement (an InitPlan, a hashed SubPlan or a
 * semi-join), so a filter through N relations costs N passes over the tables involved. The
 * correlated form (`EXISTS (… WHERE <link to the outer row> …)` nested N deep) visits every
 * related row again for every row above it: exponential in N, and a ten-hop
 * `[tags][articles][tags]…` filter could keep a connection busy for minutes.
 *
 * A localized type's `localizations` (the same document's other locales) is the exception:
 * a correlated EXISTS, one index lookup per row, since the locale to exclude is the row's own:
 *
 *   EXISTS (SELECT 1 FROM "articles" AS "_vf1" WHERE "_vf1"."document_id" = "articles"."document_id"
 *           AND "_vf1"."locale" IS DISTINCT FROM "articles"."locale" AND <status> AND <condition>)
 *
 * Relations below it match their targets in any locale (the read's status still applies).
 *
 * Repeatable components and dynamic zones are EXISTS over the row's own items (no table is
 * read); a single component is read in place (`("data"->'seo')->>'metaTitle'`), no subquery.
 *
 * Like Strapi's LEFT JOIN, a row with nothing related is read as one related row whose
 * fields are all null: when the condition holds on such a row (`[author][id][$null]`,
 * `[author][name][$null]`), rows with nothing related match too:
 *
 *   (NOT EXISTS (<anything related>) OR <membership>)
 *
 * where the EXISTS is one level deep: it reads only the link, never the nested condition.
 */
import { DEFAULT_SCOPE, scopeCondition, type Scope } from './scope-sql.ts';
import { linksTable } from './links-sql.ts';
import type { Registry } from '../content-types/registry.ts';
import { elementsOf, componentSource, hop, itemSource, stepScope } from './paths-sql.ts';
import {
  COLUMNS,
  fragment,
  joinFragments,
  outerColumn,
  outerDataOf,
  qualified,
  quote,
  type RowSource,
  type Source,
  type SqlFragment,
} from './sql.ts';
import type { ComponentStep, DynamicZoneFilter, FilterNode, RelationStep } from './types.ts';

/** The part of filters-sql.ts' CompileContext this file reads and passes on. */
interface DeepContext {
  registry: Registry;
  uid: string;
  source: Source;
  scope?: Scope;
  depth?: number;
  links?: boolean;
}

export type DeepNode =
  | (RelationStep & { node: FilterNode })
  | (ComponentStep & { node: FilterNode })
  | DynamicZoneFilter;
type Compile = (node: FilterNode, ctx: DeepContext) => SqlFragment;

/** SQL's three truth values. */
type Truth = 'true' | 'false' | 'unknown';

const not = (t: Truth): Truth => (t === 'true' ? 'false' : t === 'false' ? 'true' : 'unknown');

/**
 * What `node` gives on a row whose fields are all null (and which has nothing related):
 * decided from the tree, as SQL would evaluate it.
 */
export function onNullRow(node: FilterNode): Truth {
  switch (node.type) {
    case 'and': {
      const all = node.nodes.map(onNullRow);
      return all.includes('false') ? 'false' : all.every((t) => t === 'true') ? 'true' : 'unknown';
    }
    case 'or': {
      const all = node.nodes.map(onNullRow);
      return all.includes('true') ? 'true' : all.every((t) => t === 'false') ? 'false' : 'unknown';
    }
    case 'not':
      return not(onNullRow(node.node));
    case 'absent':
      return 'unknown';
    // a single component's fields are then null as well; anything reached by EXISTS is absent
    case 'component':
      return node.repeatable ? (onNullRow(node.node) === 'true' ? 'true' : 'false') : onNullRow(node.node);
    case 'relation':
      return onNullRow(node.node) === 'true' ? 'true' : 'false';
    case 'dynamiczone':
      return node.branches.some((b) => onNullRow(b.node) === 'true') ? 'true' : 'false';
    default:
      switch (node.operator) {
        case '$null':
          return node.value ? 'true' : 'false';
        case '$notNull':
          return node.value ? 'false' : 'true';
        case '$eq':
          return node.value === null ? 'true' : 'unknown';
        case '$ne':
          return node.value === null ? 'false' : 'unknown';
        // compiled to the constants FALSE / TRUE
        case '$in':
          return node.value.length === 0 ? 'false' : 'unknown';
        case '$notIn':
          return node.value.length === 0 ? 'true' : 'unknown';
        default:
          return 'unknown';
      }
  }
}

/**
 * `id` tested for presence: every related document and component instance has one, so
 * "id is null" means "nothing related" and "id is not null" "something related".
 */
export function idPresence(node: FilterNode): 'absent' | 'present' | undefined {
  if (node.type !== 'condition' || node.field.kind !== 'system' || node.field.name !== 'id') return undefined;
  switch (node.operator) {
    case '$null':
      return node.value ? 'absent' : 'present';
    case '$notNull':
      return node.value ? 'present' : 'absent';
    case '$eq':
      return node.value === null ? 'absent' : undefined;
    case '$ne':
      return node.value === null ? 'present' : undefined;
    default:
      return undefined;
  }
}

const exists = (from: SqlFragment, where: SqlFragment[]): SqlFragment => {
  const kept = where.filter((w) => w.sql !== 'TRUE');
  const cond = kept.length > 0 ? joinFragments(kept, ' AND ') : { sql: 'TRUE', bindings: [] };
  return {
    sql: `EXISTS (SELECT 1 FROM ${from.sql} WHERE ${cond.sql})`,
    bindings: [...from.bindings, ...cond.bindings],
  };
};

/** ANY match, and, when the condition holds on a null row, also nothing at all. */
function anyOrNone(from: SqlFragment, link: SqlFragment, match: SqlFragment | undefined, orNone: boolean): SqlFragment {
  const some = match ? exists(from, [link, match]) : { sql: 'FALSE', bindings: [] };
  if (!orNone) return some;
  const none = exists(from, [link]);
  return { sql: `(NOT ${none.sql} OR ${some.sql})`, bindings: [...none.bindings, ...some.bindings] };
}

/** `SELECT <what> FROM <target> AS alias[, <from>] WHERE <scope> AND <match>`: the matching targets, uncorrelated. */
function matchingTargets(
  registry: Registry,
  step: RelationStep,
  alias: string,
  scope: Scope,
  match: SqlFragment,
  what: SqlFragment,
  from?: SqlFragment,
): SqlFragment {
  const ct = registry.contentType(step.target);
  const inScope = scopeCondition(ct, alias, scope);
  const more = from ? `, ${from.sql}` : '';
  return {
    sql:
      `SELECT ${what.sql} FROM ${quote(ct.collectionName)} AS ${quote(alias)}${more} ` +
      `WHERE ${inScope.sql} AND ${match.sql}`,
    bindings: [...what.bindings, ...(from?.bindings ?? []), ...inScope.bindings, ...match.bindings],
  };
}

/**
 * An owning relation on a document row: the row holds any matching target. PostgreSQL runs the
 * targets' subquery once per statement, in either form.
 *
 * - Without `linkedOwner`: containment of any matching target's id in the row's `data`, looked up
 *   in its GIN index (a bitmap scan per candidate, each rechecked on its row).
 * - With `linkedOwner` (the row's type; read.ts `twiceOverLinks` decides): membership of the row's
 *   id in the rows its link table (links-sql.ts) says hold a matching target. The links are joined
 *   with the targets rather than tested with `target = ANY (ARRAY(<the targets>))`: PostgreSQL
 *   then estimates them from the targets' statistics, and chooses between walking a sort's index
 *   probing each row's links and reading the matching rows' links first (at 1k articles, 31
 *   matches of `category` and a tag: 1.5–2.2 ms this way, 2.1–3.4 ms with the array, whose size
 *   it guesses).
 */
function heldByRow(
  registry: Registry,
  linkedOwner: string | undefined,
  src: RowSource,
  step: RelationStep,
  alias: string,
  scope: Scope,
  match: SqlFragment,
): SqlFragment {
  if (linkedOwner === undefined) {
    const id = qualified(alias, COLUMNS.documentId);
    const held = fragment(`jsonb_build_object(?::text, ${step.link.toMany ? `jsonb_build_array(${id})` : id})`, [
      step.attribute,
    ]);
    const targets = matchingTargets(registry, step, alias, scope, match, held);
    return { sql: `(${outerColumn(src, COLUMNS.data)} @> ANY (ARRAY(${targets.sql})))`, bindings: targets.bindings };
  }
  const links = quote(linksTable(registry.contentType(linkedOwner).collectionName));
  const l = quote(`${alias}_l`);
  const targets = matchingTargets(
    registry,
    step,
    alias,
    scope,
    fragment(`${l}."attribute" = ? AND ${l}."target" = ${qualified(alias, COLUMNS.documentId)} AND ${match.sql}`, [
      step.attribute,
      ...match.bindings,
    ]),
    fragment(`${l}."row_id"`),
    fragment(`${links} AS ${l}`),
  );
  return { sql: `(${outerColumn(src, COLUMNS.id)} IN (${targets.sql}))`, bindings: targets.bindings };
}

/** Whether any of the ids `src` holds in `attribute` (one, or an array) is in `set`. */
function holdsAnyOf(src: Source, attribute: string, toMany: boolean, alias: string, set: SqlFragment): SqlFragment {
  if (!toMany) {
    const d = outerDataOf(src);
    return { sql: `((${d.sql}->>?) IN (${set.sql}))`, bindings: [...d.bindings, attribute, ...set.bindings] };
  }
  const items = elementsOf(src, attribute, alias, 'text');
  return {
    sql: `EXISTS (SELECT 1 FROM ${items.sql} WHERE ${quote(alias)}.v IN (${set.sql}))`,
    bindings: [...items.bindings, ...set.bindings],
  };
}

/**
 * "Some related document or file matches": `src`'s key tested against the uncorrelated set of matching
 * ones. `linkedOwner`, the uid of `src`'s type when the read matches owning relations in the link
 * tables (`DeepContext.links`); undefined, by containment in `data`.
 */
function membership(
  registry: Registry,
  linkedOwner: string | undefined,
  src: Source,
  step: RelationStep,
  alias: string,
  scope: Scope,
  match: SqlFragment,
): SqlFragment {
  const l = step.link;
  if (l.kind === 'localizations') throw new Error('localizations are matched by a correlated EXISTS, not membership');
  if (l.kind === 'inverse') {
    if (src.kind === 'instance') throw new Error(`inverse relation ${step.attribute} read from a component`);
    // the documentIds the matching owners hold in their owning attribute
    const held = `${alias}_o`;
    const owners = l.ownerToMany
      ? matchingTargets(
          registry,
          step,
          alias,
          scope,
          match,
          fragment(`${quote(held)}.v`),
          elementsOf({ alias }, l.owner, held, 'text'),
        )
      : matchingTargets(
          registry,
          step,
          alias,
          scope,
          match,
          fragment(`${qualified(alias, COLUMNS.data)}->>?`, [l.owner]),
        );
    return { sql: `(${outerColumn(src, COLUMNS.documentId)} IN (${owners.sql}))`, bindings: owners.bindings };
  }
  if (l.kind === 'owning' && src.kind !== 'instance')
    return heldByRow(registry, linkedOwner, src, step, alias, scope, match);
  // from a component instance (no index applies) or to files: the held ids against a hashed set
  const key = fragment(
    l.kind === 'media' ? `${qualified(alias, COLUMNS.id)}::text` : qualified(alias, COLUMNS.documentId),
  );
  return holdsAnyOf(
    src,
    step.attribute,
    l.toMany,
    `${alias}_h`,
    matchingTargets(registry, step, alias, scope, match, key),
  );
}

/** A relation, component or dynamic zone node as one parenthesised SQL condition. */
export function compileDeep(node: DeepNode, ctx: DeepContext, compile: Compile): SqlFragment {
  if (node.type === 'component' && !node.repeatable) {
    return compile(node.node, { ...ctx, uid: node.component, source: componentSource(ctx.source, node.attribute) });
  }
  const depth = (ctx.depth ?? 0) + 1;
  const alias = `_vf${depth}`;
  if (node.type === 'dynamiczone') {
    const from = elementsOf(ctx.source, node.attribute, alias);
    const inner = { ...ctx, source: itemSource(alias), depth };
    const branches = node.branches.map((b) => {
      const c = compile(b.node, { ...inner, uid: b.component });
      return { sql: `(${quote(alias)}.v->>'__component' = ? AND ${c.sql})`, bindings: [b.component, ...c.bindings] };
    });
    const match = branches.length > 0 ? joinFragments(branches, ' OR ') : undefined;
    const orNone = node.branches.some((b) => onNullRow(b.node) === 'true');
    const out = anyOrNone(
      from,
      { sql: 'TRUE', bindings: [] },
      match && { sql: `(${match.sql})`, bindings: match.bindings },
      orNone,
    );
    return { sql: `(${out.sql})`, bindings: out.bindings };
  }
  const scope = ctx.scope ?? DEFAULT_SCOPE;
  const h = hop(ctx.registry, ctx.source, node, alias, scope);
  const presence = idPresence(node.node);
  if (presence) {
    const e = exists(h.from, [h.where]);
    return { sql: presence === 'absent' ? `(NOT ${e.sql})` : `(${e.sql})`, bindings: e.bindings };
  }
  const orNone = onNullRow(node.node) === 'true';
  if (node.type === 'component') {
    const match = compile(node.node, { ...ctx, uid: node.component, source: h.source, depth });
    const out = anyOrNone(h.from, h.where, match, orNone);
    return { sql: `(${out.sql})`, bindings: out.bindings };
  }
  if (node.link.kind === 'localizations') {
    // the same document's other rows, found through the version index from each row: a
    // handful per row, so the correlated form costs no more than the uncorrelated set would
    const inner = compile(node.node, {
      ...ctx,
      uid: node.target,
      source: h.source,
      scope: stepScope(node, scope),
      depth,
    });
    const out = anyOrNone(h.from, h.where, inner, orNone);
    return { sql: `(${out.sql})`, bindings: out.bindings };
  }
  const match = compile(node.node, { ...ctx, uid: node.target, source: h.source, depth });
  // the link tables only where the read asked for them (read.ts `evaluatedOnce`)
  const some = membership(ctx.registry, ctx.links ? ctx.uid : undefined, ctx.source, node, alias, scope, match);
  if (!orNone) return some;
  const none = exists(h.from, [h.where]);
  return { sql: `(NOT ${none.sql} OR ${some.sql})`, bindings: [...none.bindings, ...some.bindings] };
}
