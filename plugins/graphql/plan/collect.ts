/**
 * GraphQL's CollectFields (spec §6.3.2) for the planner: the fields a selection set selects on
 * one concrete type, by response key in order, through fragment spreads and inline fragments
 * whose condition the type satisfies, minus what `@skip`/`@include` leave out.
 */
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getDirectiveValues,
  type GraphQLSchema,
  isAbstractType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';

/** What planning one operation needs besides the schema model. */
export interface OperationContext {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

/** A document's fragment definitions by name. */
export function fragmentsOf(doc: DocumentNode): Record<string, FragmentDefinitionNode> {
  // no prototype: a fragment may be named `__proto__` or `constructor`
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  return fragments;
}

/** Response key → the field nodes merged under it (same field, possibly several sub-selections). */
export type Collected = Map<string, FieldNode[]>;

function included(op: OperationContext, node: Parameters<typeof getDirectiveValues>[1]): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, op.variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, op.variables)?.if !== false;
}

/** Whether a fragment typed `condition` applies to objects of type `typeName`. */
function applies(op: OperationContext, condition: string | undefined, typeName: string): boolean {
  if (!condition || condition === typeName) return true;
  const cond = op.schema.getType(condition);
  const type = op.schema.getType(typeName);
  return !!cond && isAbstractType(cond) && isObjectType(type) && op.schema.isSubType(cond, type);
}

function collectInto(
  op: OperationContext,
  typeName: string,
  set: SelectionSetNode,
  out: Collected,
  visited: Set<string>,
): void {
  for (const sel of set.selections) {
    if (!included(op, sel)) continue;
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      const list = out.get(key);
      if (list) list.push(sel);
      else out.set(key, [sel]);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (applies(op, sel.typeCondition?.name.value, typeName))
        collectInto(op, typeName, sel.selectionSet, out, visited);
    } else {
      const name = sel.name.value;
      const fragment = op.fragments[name];
      // a fragment spread twice in one selection set adds nothing the second time (the spec's rule)
      if (!fragment || visited.has(name) || !applies(op, fragment.typeCondition.name.value, typeName)) continue;
      visited.add(name);
      collectInto(op, typeName, fragment.selectionSet, out, visited);
    }
  }
}

/** The fields the selection sets of `nodes` (fields merged under one key) select on `typeName`. */
export function subfields(op: OperationContext, typeName: string, nodes: readonly FieldNode[]): Collected {
  const out: Collected = new Map();
  const visited = new Set<string>();
  for (const node of nodes) if (node.selectionSet) collectInto(op, typeName, node.selectionSet, out, visited);
  return out;
}

/** The fields a top-level selection set selects on `typeName` (an operation's root fields). */
export function rootFields(op: OperationContext, typeName: string, set: SelectionSetNode): Collected {
  const out: Collected = new Map();
  collectInto(op, typeName, set, out, new Set());
  return out;
}
