/**
 * `depthLimit` as graphql-depth-limit 1.1.0 counts (what Strapi uses): root fields are at depth 0,
 * each selection set adds one, fragments add nothing, `__*` fields (introspection) are not
 * counted. A validation rule, so a document past it never reaches planning (400). Each selection
 * set's height is computed once, so a fragment spread a thousand times costs no more than once.
 */
import {
  type ASTVisitor,
  type FieldNode,
  GraphQLError,
  Kind,
  type SelectionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export function depthLimit(max: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const heights = new Map<SelectionSetNode, number>();
    const entered = new Set<string>();
    /** The selection set a fragment selection stands for; none for unknown or cyclic ones (refused elsewhere). */
    const inner = (sel: SelectionNode): SelectionSetNode | undefined => {
      if (sel.kind === Kind.INLINE_FRAGMENT) return sel.selectionSet;
      if (sel.kind !== Kind.FRAGMENT_SPREAD || entered.has(sel.name.value)) return undefined;
      return context.getFragment(sel.name.value)?.selectionSet;
    };
    /** How many levels below its own fields a selection set's deepest counted field is. */
    const height = (set: SelectionSetNode): number => {
      const known = heights.get(set);
      if (known !== undefined) return known;
      let h = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          if (!sel.name.value.startsWith('__') && sel.selectionSet) h = Math.max(h, 1 + height(sel.selectionSet));
          continue;
        }
        const sub = inner(sel);
        if (!sub) continue;
        const name = sel.kind === Kind.FRAGMENT_SPREAD ? sel.name.value : undefined;
        if (name) entered.add(name);
        h = Math.max(h, height(sub));
        if (name) entered.delete(name);
      }
      heights.set(set, h);
      return h;
    };
    /** The first field deeper than the limit, following only the selections that lead to one. */
    const offending = (set: SelectionSetNode, depth: number, path: ReadonlySet<string>): FieldNode | undefined => {
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          if (sel.name.value.startsWith('__')) continue;
          if (depth > max) return sel;
          if (sel.selectionSet && depth + 1 + height(sel.selectionSet) > max) {
            return offending(sel.selectionSet, depth + 1, path);
          }
          continue;
        }
        const name = sel.kind === Kind.FRAGMENT_SPREAD ? sel.name.value : '';
        const sub = path.has(name) ? undefined : inner(sel);
        if (sub && depth + height(sub) > max) return offending(sub, depth, name ? new Set([...path, name]) : path);
      }
      return undefined;
    };
    return {
      OperationDefinition(op) {
        if (height(op.selectionSet) <= max) return;
        const field = offending(op.selectionSet, 0, new Set());
        const name = op.name?.value ?? '';
        const message = `'${name}' exceeds maximum operation depth of ${max}`;
        context.reportError(new GraphQLError(message, { nodes: field ? [field] : [op] }));
      },
    };
  };
}
