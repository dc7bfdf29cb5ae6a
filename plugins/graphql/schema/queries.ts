/**
 * The shadow CRUD's Query fields: `x(id)` (action `findOne`), `xs(filters, pagination, sort, …)`
 * (`find`), single types' `x` (`find`), each left out when the app's `register` disabled the
 * type's queries or that action (Strapi's `builders/queries`).
 */
import { arg, objectType } from 'nexus';
import type { GraphQLFieldResolver } from 'graphql';
import type { ContentType } from '../../../core/index.ts';
import * as n from '../naming.ts';
import { listArgs } from './outputs.ts';
import { type BuildContext, hasDraftAndPublish, localeArg, ownerName } from './context.ts';
import { type RootField, readAction } from './model.ts';

export type RootResolver = (field: RootField) => GraphQLFieldResolver<unknown, unknown>;

export function queryType(ctx: BuildContext, types: ContentType[], roots: Map<string, RootField>) {
  return objectType({
    name: 'Query',
    definition(t) {
      for (const ct of types) {
        const shadow = ctx.shadow(ct.uid);
        if (shadow.areQueriesDisabled()) continue;
        const name = ownerName(ctx, ct.uid);
        const dp = hasDraftAndPublish(ct);
        if (ct.kind === 'singleType') {
          if (shadow.isActionDisabled('find')) continue;
          const root: RootField = { uid: ct.uid, kind: 'single', action: readAction(ct.uid, 'find') };
          roots.set(n.findOneName(ct), root);
          t.field(n.findOneName(ct), {
            type: n.entityResponse(name),
            args: {
              ...(dp ? { publicationState: arg({ type: 'PublicationState', default: 'LIVE' }) } : {}),
              ...localeArg(ct),
            },
          });
          continue;
        }
        if (shadow.isActionEnabled('findOne')) {
          roots.set(n.findOneName(ct), { uid: ct.uid, kind: 'findOne', action: readAction(ct.uid, 'findOne') });
          t.field(n.findOneName(ct), {
            type: n.entityResponse(name),
            args: { id: arg({ type: 'ID' }), ...localeArg(ct) },
          });
        }
        if (shadow.isActionEnabled('find')) {
          roots.set(n.findName(ct), { uid: ct.uid, kind: 'find', action: readAction(ct.uid, 'find') });
          t.field(n.findName(ct), {
            type: n.entityCollection(name),
            args: { ...listArgs(n.filtersName(name), dp), ...localeArg(ct) },
          });
        }
      }
    },
  });
}
