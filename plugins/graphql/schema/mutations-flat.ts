/**
 * The shadow CRUD's writes in Strapi 5's flat shape: `createX(data, locale, status): X`,
 * `updateX(documentId, data, locale, status): X`, `deleteX(documentId, locale): DeleteMutationResponse`
 * (single types without `documentId`); no `createXLocalization` (Strapi 5 creates a locale with
 * an update in it). Plugin types are left to their plugins, as in the entity shape.
 */
import { arg, idArg, nonNull } from 'nexus';
import type { ArgsRecord } from 'nexus/dist/core.js';
import type { ContentType } from '../../../core/index.ts';
import * as n from '../naming.ts';
import { type BuildContext, ownerName } from './context.ts';
import { type MutationRoot, type MutationSpec, NO_WRITES } from './mutations.ts';
import { publicationArgs } from './queries-flat.ts';

export function contentTypeMutationsFlat(ctx: BuildContext, types: ContentType[]): MutationSpec[] {
  const out: MutationSpec[] = [];
  for (const ct of types) {
    if (ct.origin !== 'api' || NO_WRITES.has(ct.uid)) continue;
    const name = ownerName(ctx, ct.uid);
    const data = { data: nonNull(arg({ type: n.inputName(name) })) };
    const root = (kind: MutationRoot['kind']): MutationRoot => ({
      uid: ct.uid,
      kind,
      action: `${ct.uid}.${kind}`,
      shape: 'flat',
    });
    const shadow = ctx.shadow(ct.uid);
    const writes = (action: string): boolean => shadow.areMutationsEnabled() && shadow.isActionEnabled(action);
    const id: ArgsRecord = ct.kind === 'singleType' ? {} : { documentId: nonNull(idArg()) };
    if (ct.kind !== 'singleType' && writes('create')) {
      out.push({ name: `create${name}`, type: name, args: { ...data, ...publicationArgs(ct) }, root: root('create') });
    }
    if (writes('update')) {
      const args = { ...id, ...data, ...publicationArgs(ct) };
      out.push({ name: `update${name}`, type: name, args, root: root('update') });
    }
    if (writes('delete')) {
      const args = { ...id, ...publicationArgs(ct, false) };
      out.push({ name: `delete${name}`, type: 'DeleteMutationResponse', args, root: root('delete') });
    }
  }
  return out;
}
