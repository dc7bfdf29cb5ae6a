/**
 * SQL for stepping from a row (or component instance) to what one of its attributes leads
 * to: the related documents in the read's scope, or the instances of a component. Deep
 * filters wrap these in EXISTS, relation sort in a scalar subquery.
 */
import type { Registry } from '../content-types/registry.ts';
import { scopeCondition, type Scope } from './scope-sql.ts';
import {
  COLUMNS,
  outerColumn,
  outerDataOf,
  qualified,
  quote,
  type InstanceSource,
  type RowSource,
  type Source,
  type SqlFragment,
} from './sql.ts';
import type { ComponentStep, RelationStep } from './types.ts';

/** What a step reaches: the FROM of a subquery, the condition tying it to the outer source, and its rows' source. */
export interface Hop {
  from: SqlFragment;
  where: SqlFragment;
  source: Source;
}

/**
 * How a related row under `alias` is tied to the source. Owning to-one compares
 * `document_id` (served by the version index); arrays are tested by containment rather than
 * `?`, which knex would need escaped wherever the fragment travels and which the
 * `jsonb_path_ops` index on an inverse side's `data` cannot serve.
 */
function link(src: Source, step: RelationStep, alias: string): SqlFragment {
  const t = (c: string): string => qualified(alias, c);
  const l = step.link;
  switch (l.kind) {
    case 'inverse': {
      if (src.kind === 'instance') throw new Error(`inverse relation ${step.attribute} read from a component`);
      const id = outerColumn(src, COLUMNS.documentId);
      const held = l.ownerToMany ? `jsonb_build_array(${id})` : id;
      return { sql: `${t(COLUMNS.data)} @> jsonb_build_object(?::text, ${held})`, bindings: [l.owner] };
    }
    case 'localizations': {
      // the same document (served by the version index), in a locale other than the row's
      if (src.kind === 'instance') throw new Error(`${step.attribute} read from a component`);
      const same = `${t(COLUMNS.documentId)} = ${outerColumn(src, COLUMNS.documentId)}`;
      const other = `${t(COLUMNS.locale)} IS DISTINCT FROM ${outerColumn(src, COLUMNS.locale)}`;
      return { sql: `${same} AND ${other}`, bindings: [] };
    }
    case 'media':
    case 'owning': {
      const d = outerDataOf(src);
      const bindings = [...d.bindings, step.attribute];
      const key = t(l.kind === 'media' ? COLUMNS.id : COLUMNS.documentId);
      if (l.toMany) return { sql: `${d.sql}->? @> jsonb_build_array(${key})`, bindings };
      return l.kind === 'media'
        ? { sql: `${key} = (${d.sql}->>?)::bigint`, bindings }
        : { sql: `${key} = ${d.sql}->>?`, bindings };
    }
    default:
      return unreachable(l);
  }
}

const unreachable = (l: never): never => {
  throw new Error(`unknown relation link ${JSON.stringify(l)}`);
};

/**
 * The scope the rows a step reaches are read in: the read's, but a document's other locales
 * are in any locale (the read's status still applies).
 */
export const stepScope = (step: RelationStep, scope: Scope): Scope =>
  step.link.kind === 'localizations' ? { ...scope, locale: null } : scope;

/** The single instance of a component attribute: no subquery, its fields read in place. */
export function componentSource(src: Source, attribute: string): InstanceSource {
  const d = outerDataOf(src);
  return { kind: 'instance', sql: `(${d.sql}->?)`, bindings: [...d.bindings, attribute] };
}

/**
 * The items of an array attribute (a repeatable component, a dynamic zone, to-many ids) as rows
 * `alias(v)`, jsonb or (`text`) text; anything but an array has none.
 */
export function elementsOf(src: Source, attribute: string, alias: string, as: 'jsonb' | 'text' = 'jsonb'): SqlFragment {
  const d = outerDataOf(src);
  const value = { sql: `${d.sql}->?`, bindings: [...d.bindings, attribute] };
  const fn = as === 'text' ? 'jsonb_array_elements_text' : 'jsonb_array_elements';
  return {
    sql: `${fn}(CASE WHEN jsonb_typeof(${value.sql}) = 'array' THEN ${value.sql} END) AS ${quote(alias)}(v)`,
    bindings: [...value.bindings, ...value.bindings],
  };
}

/** The instance source of an item under `alias`. */
export const itemSource = (alias: string): InstanceSource => ({
  kind: 'instance',
  sql: `${quote(alias)}.v`,
  bindings: [],
});

/** What a relation step or repeatable component step reaches from `src`, under `alias`. */
export function hop(
  registry: Registry,
  src: Source,
  step: RelationStep | ComponentStep,
  alias: string,
  scope: Scope,
): Hop {
  if (step.type === 'component') {
    return {
      from: elementsOf(src, step.attribute, alias),
      where: { sql: 'TRUE', bindings: [] },
      source: itemSource(alias),
    };
  }
  const ct = registry.contentType(step.target);
  const tie = link(src, step, alias);
  const inScope = scopeCondition(ct, alias, stepScope(step, scope));
  const source: RowSource = { alias, table: ct.collectionName };
  return {
    from: { sql: `${quote(ct.collectionName)} AS ${quote(alias)}`, bindings: [] },
    where: { sql: `${tie.sql} AND ${inScope.sql}`, bindings: [...tie.bindings, ...inScope.bindings] },
    source,
  };
}

/** Whether a step can reach several rows or instances. */
export const reachesMany = (step: RelationStep | ComponentStep): boolean =>
  step.type === 'component' ? step.repeatable : step.link.toMany;
