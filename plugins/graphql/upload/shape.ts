/**
 * A file record in the shape of `UploadFileEntityResponse` (the flat shape: `UploadFile`), under
 * the response keys of the selection (as the reads answer, so `execute` reads it the same way). Built from the record
 * the upload service returned: a removed file can no longer be read back.
 */
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import type { Doc } from '../../../core/index.ts';
import { type OperationContext, subfields } from '../plan/collect.ts';

type Shaped = Record<string, unknown>;

function shape(
  op: OperationContext,
  typeName: string,
  nodes: readonly FieldNode[],
  value: (name: string, sub: FieldNode[]) => unknown,
): Shaped {
  const out: Shaped = {};
  for (const [key, sub] of subfields(op, typeName, nodes)) {
    const name = sub[0].name.value;
    out[key] = name === '__typename' ? typeName : value(name, sub);
  }
  return out;
}

/** `doc` null: `data: null` (a shadow CRUD write of an unknown id). */
export function fileResponse(
  doc: Doc | null,
  info: GraphQLResolveInfo,
  nodes: readonly FieldNode[] = info.fieldNodes,
): Shaped {
  const op: OperationContext = { schema: info.schema, fragments: info.fragments, variables: info.variableValues };
  if (doc === null) return shape(op, 'UploadFileEntityResponse', nodes, () => null);
  const attributes = (sub: FieldNode[]) => shape(op, 'UploadFile', sub, (name) => doc[name] ?? null);
  const entity = (sub: FieldNode[]) =>
    shape(op, 'UploadFileEntity', sub, (name, s) => (name === 'id' ? String(doc.id) : attributes(s)));
  return shape(op, 'UploadFileEntityResponse', nodes, (_name, sub) => entity(sub));
}

/**
 * The flat shape's `UploadFile` (`doc` null: null). With `v4CompatibilityMode`, its deprecated
 * `id` is the row id and `attributes` and `data` are the file itself.
 */
export function fileDocument(
  doc: Doc | null,
  info: GraphQLResolveInfo,
  nodes: readonly FieldNode[] = info.fieldNodes,
): Shaped | null {
  if (doc === null) return null;
  const op: OperationContext = { schema: info.schema, fragments: info.fragments, variables: info.variableValues };
  const file = (sub: readonly FieldNode[]): Shaped =>
    shape(op, 'UploadFile', sub, (name, s) => {
      if (name === 'id') return String(doc.id);
      return name === 'attributes' || name === 'data' ? file(s) : (doc[name] ?? null);
    });
  return file(nodes);
}
