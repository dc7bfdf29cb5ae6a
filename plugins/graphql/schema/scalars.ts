/**
 * Strapi 4's scalars, with its descriptions (they are part of the printed SDL). Inputs are
 * checked for their form only: what a value means for an attribute (a real date, a known
 * locale) is the core's check, as for REST.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode, valueFromASTUntyped } from 'graphql';
import { LOCALE_CODE } from '../../../core/index.ts';

const ISO_SPEC = 'section 5.6 of the RFC 3339 profile of the ISO 8601 standard';
const CALENDAR = 'for representation of dates and times using the Gregorian calendar.';

/** A string scalar whose inputs match `form` (`what` names it in the error). */
function stringScalar(name: string, description: string, form: RegExp, what: string): GraphQLScalarType {
  const check = (value: unknown): string => {
    if (typeof value !== 'string' || !form.test(value)) {
      throw new GraphQLError(`${name} cannot represent ${JSON.stringify(value)}: expected ${what}`);
    }
    return value;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: (value) => value,
    parseValue: check,
    parseLiteral: (ast: ValueNode) => check(ast.kind === Kind.STRING ? ast.value : valueFromASTUntyped(ast)),
  });
}

export const jsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description:
    'The `JSON` scalar type represents JSON values as specified by ' +
    '[ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

export const dateTimeScalar = stringScalar(
  'DateTime',
  'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in ' +
    `${ISO_SPEC} ${CALENDAR}`,
  /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/,
  'an ISO 8601 date-time',
);

export const dateScalar = stringScalar(
  'Date',
  `A date string, such as 2007-12-03, compliant with the \`full-date\` format outlined in ${ISO_SPEC} ${CALENDAR}`,
  /^\d{4}-\d{2}-\d{2}$/,
  'a date (YYYY-MM-DD)',
);

export const timeScalar = stringScalar(
  'Time',
  'A time string with format HH:mm:ss.SSS',
  /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/,
  'a time (HH:mm:ss.SSS)',
);

/** biginteger: digits as a string (exact past 2^53), as the core stores them. */
export const longScalar = new GraphQLScalarType({
  name: 'Long',
  description: 'The `BigInt` scalar type represents non-fractional signed whole numeric values.',
  serialize: (value) => value,
  parseValue: (value) => checkLong(value),
  parseLiteral: (ast) => checkLong(ast.kind === Kind.INT || ast.kind === Kind.STRING ? ast.value : undefined),
});

function checkLong(value: unknown): string {
  const s = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof s !== 'string' || !/^-?\d{1,20}$/.test(s)) throw new GraphQLError('Long cannot represent this value');
  return s;
}

/** The file of a multipart request (the upload mutations come with the rest of #13). */
export const uploadScalar = new GraphQLScalarType({
  name: 'Upload',
  description: 'The `Upload` scalar type represents a file upload.',
  serialize: () => {
    throw new GraphQLError('Upload serialization unsupported.');
  },
  parseValue: (value) => value,
  parseLiteral: () => {
    throw new GraphQLError('Upload literal unsupported.');
  },
});

/**
 * As Strapi 4: a literal must look like a locale code or be `all` (every locale); a variable is
 * taken as it is (the i18n middleware refuses a locale it does not know either way).
 */
export const localeCodeScalar = new GraphQLScalarType({
  name: 'I18NLocaleCode',
  description: 'A string used to identify an i18n locale',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || (ast.value !== 'all' && !LOCALE_CODE.test(ast.value))) {
      throw new GraphQLError('Unknown locale supplied');
    }
    return ast.value;
  },
});

/** The scalars of Strapi 4's mapping, by name. */
export const SCALARS: readonly GraphQLScalarType[] = [
  jsonScalar,
  dateTimeScalar,
  dateScalar,
  timeScalar,
  longScalar,
  uploadScalar,
  localeCodeScalar,
];
