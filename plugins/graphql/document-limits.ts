/**
 * Bounds on a document checked before graphql's validation, whose cost grows faster than the
 * document (OverlappingFieldsCanBeMerged compares fields pairwise; fragments multiply): the text's
 * size, the variables' size, and aliases and root fields counted as the operations would run them,
 * each fragment spread counted as many times as it is spread. Counting is memoized per fragment
 * and saturates, so a fragment bomb (F1 spreads F2 twice, F2 spreads F3 twice…) costs a pass over
 * the document, never its expansion.
 */
import { type DocumentNode, type FragmentDefinitionNode, Kind, type SelectionSetNode } from 'graphql';

export interface DocumentLimits {
  /** characters of `query` */
  maxDocumentSize: number;
  /** characters of the variables as JSON */
  maxVariablesSize: number;
  /** aliased fields of one operation, fragments expanded */
  maxAliases: number;
  /** root fields of one operation, fragments expanded (aliases of one field count apart) */
  maxRootFields: number;
}

export interface LimitFailure {
  status: 400 | 413;
  message: string;
}

export function checkQuerySize(query: string, limits: DocumentLimits): LimitFailure | null {
  return query.length > limits.maxDocumentSize
    ? { status: 413, message: `The query document is larger than ${limits.maxDocumentSize} characters` }
    : null;
}

/** Variables' JSON size; a value too deeply nested to serialize is refused too (never a 500). */
export function checkVariablesSize(variables: unknown, limits: DocumentLimits): LimitFailure | null {
  if (variables === undefined || variables === null) return null;
  let size: number;
  try {
    size = JSON.stringify(variables)?.length ?? 0;
  } catch {
    return { status: 400, message: '`variables` are nested too deeply' };
  }
  return size > limits.maxVariablesSize
    ? { status: 413, message: `\`variables\` are larger than ${limits.maxVariablesSize} characters as JSON` }
    : null;
}

interface Counts {
  aliases: number;
  fields: number;
}

/** Aliases and root fields of every operation in the document (`fragments`: its own), against the limits. */
export function checkDocumentCounts(
  doc: DocumentNode,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  limits: DocumentLimits,
): LimitFailure | null {
  // past this, the exact count no longer matters: saturate rather than overflow into Infinity
  const cap = Math.max(limits.maxAliases, limits.maxRootFields) + 1;
  const memo = new Map<SelectionSetNode, Counts>();
  const entered = new Set<string>();
  const count = (set: SelectionSetNode): Counts => {
    const known = memo.get(set);
    if (known) return known;
    const c: Counts = { aliases: 0, fields: 0 };
    const add = (sub: Counts): void => {
      c.aliases = Math.min(cap, c.aliases + sub.aliases);
      c.fields = Math.min(cap, c.fields + sub.fields);
    };
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        add({ aliases: sel.alias ? 1 : 0, fields: 1 });
        // nested fields count toward aliases only: `fields` is read at the root
        if (sel.selectionSet) add({ aliases: count(sel.selectionSet).aliases, fields: 0 });
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        add(count(sel.selectionSet));
      } else {
        const name = sel.name.value;
        const fragment = Object.hasOwn(fragments, name) ? fragments[name] : undefined;
        // unknown and cyclic spreads are validation's to refuse
        if (!fragment || entered.has(name)) continue;
        entered.add(name);
        add(count(fragment.selectionSet));
        entered.delete(name);
      }
    }
    memo.set(set, c);
    return c;
  };
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    const c = count(def.selectionSet);
    if (c.aliases > limits.maxAliases)
      return { status: 400, message: `The operation has more than ${limits.maxAliases} aliases` };
    if (c.fields > limits.maxRootFields)
      return { status: 400, message: `The operation has more than ${limits.maxRootFields} root fields` };
  }
  return null;
}
