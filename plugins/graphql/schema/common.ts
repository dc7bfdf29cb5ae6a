/** The types every shadow CRUD schema has: pagination, meta, errors, publication state, scalar filters. */
import { enumType, inputObjectType, list, objectType } from 'nexus';
import type { BuildContext } from './context.ts';

/** Strapi 4's 22 operators of every scalar filter, in its order. */
export const FILTER_OPERATORS = [
  'and',
  'or',
  'not',
  'eq',
  'eqi',
  'ne',
  'nei',
  'startsWith',
  'endsWith',
  'contains',
  'notContains',
  'containsi',
  'notContainsi',
  'gt',
  'gte',
  'lt',
  'lte',
  'null',
  'notNull',
  'in',
  'notIn',
  'between',
] as const;

const LISTS: ReadonlySet<string> = new Set(['and', 'or', 'in', 'notIn', 'between']);

/** `StringFilterInput` and its siblings: `and/or` are lists of the scalar (Strapi's typing), `not` itself. */
function scalarFilter(scalar: string) {
  const name = `${scalar}FilterInput`;
  return inputObjectType({
    name,
    definition(t) {
      for (const op of FILTER_OPERATORS) {
        if (op === 'not') t.field(op, { type: name });
        else if (op === 'null' || op === 'notNull') t.boolean(op);
        else if (LISTS.has(op)) t.field(op, { type: list(scalar) });
        else t.field(op, { type: scalar });
      }
    },
  });
}

const FILTERED_SCALARS = ['ID', 'Boolean', 'String', 'Int', 'Long', 'Float', 'Date', 'Time', 'DateTime', 'JSON'];

export function commonTypes(ctx: BuildContext) {
  ctx.roles.set('ResponseCollectionMeta', { kind: 'meta' });
  ctx.roles.set('Pagination', { kind: 'pagination' });
  return [
    objectType({
      name: 'Error',
      definition(t) {
        t.nonNull.string('code');
        t.string('message');
      },
    }),
    objectType({
      name: 'Pagination',
      definition(t) {
        t.nonNull.int('total');
        t.nonNull.int('page');
        t.nonNull.int('pageSize');
        t.nonNull.int('pageCount');
      },
    }),
    objectType({
      name: 'ResponseCollectionMeta',
      definition(t) {
        t.nonNull.field('pagination', { type: 'Pagination' });
      },
    }),
    enumType({ name: 'PublicationState', members: ['LIVE', 'PREVIEW'] }),
    inputObjectType({
      name: 'PaginationArg',
      definition(t) {
        t.int('page');
        t.int('pageSize');
        t.int('start');
        t.int('limit');
      },
    }),
    ...FILTERED_SCALARS.map(scalarFilter),
  ];
}

/** Strapi 5's (the flat shape's) own: the `status` argument's enum and what a delete answers. */
export function flatCommonTypes() {
  return [
    enumType({ name: 'PublicationStatus', members: ['DRAFT', 'PUBLISHED'] }),
    objectType({
      name: 'DeleteMutationResponse',
      definition(t) {
        t.nonNull.id('documentId');
      },
    }),
  ];
}
