/**
 * The shadow CRUD's Query fields in Strapi 5's flat shape: `x(documentId, status, locale)`
 * (`findOne`), `xs(filters, pagination, sort, status, locale): [X]!` (`find`),
 * `xs_connection(…)` (`connection`: `{ nodes pageInfo }`), single types' `x(status, locale)`
 * (`single`). Strapi 5's `hasPublishedVersion` and `publicationFilter` are left out (Vellum's
 * query engine has no such cohorts; differences-flat.ts).
 */
import { arg, idArg, list, nonNull, objectType } from 'nexus';
import type { ArgsRecord } from 'nexus/dist/core.js';
import { type ContentType, isLocalized } from '../../../core/index.ts';
import * as n from '../naming.ts';
import { type BuildContext, ownerName } from './context.ts';
import { type RootField, readAction } from './model.ts';
import { listArgs } from './outputs.ts';

/** Strapi 5's `status` (every content-type has it) and i18n's `locale`, described as Strapi 5 does. */
export function publicationArgs(ct: ContentType, status = true): ArgsRecord {
  return {
    ...(status ? { status: arg({ type: 'PublicationStatus', default: 'PUBLISHED' }) } : {}),
    ...(isLocalized(ct)
      ? { locale: arg({ type: 'I18NLocaleCode', description: 'The locale to use for the query' }) }
      : {}),
  };
}

/** `articles_connection`. */
export const connectionName = (ct: ContentType): string => `${n.findName(ct)}_connection`;

export function queryTypeFlat(ctx: BuildContext, types: ContentType[], roots: Map<string, RootField>) {
  return objectType({
    name: 'Query',
    definition(t) {
      for (const ct of types) {
        const shadow = ctx.shadow(ct.uid);
        if (shadow.areQueriesDisabled()) continue;
        const name = ownerName(ctx, ct.uid);
        const uid = ct.uid;
        if (ct.kind === 'singleType') {
          if (shadow.isActionDisabled('find')) continue;
          roots.set(n.findOneName(ct), { uid, kind: 'single', action: readAction(uid, 'find') });
          t.field(n.findOneName(ct), { type: name, args: publicationArgs(ct) });
          continue;
        }
        if (shadow.isActionEnabled('findOne')) {
          roots.set(n.findOneName(ct), { uid, kind: 'findOne', action: readAction(uid, 'findOne') });
          t.field(n.findOneName(ct), { type: name, args: { documentId: nonNull(idArg()), ...publicationArgs(ct) } });
        }
        if (shadow.isActionEnabled('find')) {
          const args = { ...listArgs(n.filtersName(name), false), ...publicationArgs(ct) };
          const action = readAction(uid, 'find');
          roots.set(n.findName(ct), { uid, kind: 'find', action });
          t.field(n.findName(ct), { type: nonNull(list(name)), args });
          roots.set(connectionName(ct), { uid, kind: 'connection', action });
          t.field(connectionName(ct), { type: n.entityCollection(name), args });
        }
      }
    },
  });
}
