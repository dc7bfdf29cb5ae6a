/** Which GraphQL type each attribute type maps to (Strapi 4's `constants.js`). */
import type { ScalarType } from '../../../core/index.ts';

const SCALAR_TYPE: Record<ScalarType, string> = {
  string: 'String',
  text: 'String',
  richtext: 'String',
  uid: 'String',
  email: 'String',
  password: 'String',
  enumeration: 'String',
  integer: 'Int',
  biginteger: 'Long',
  float: 'Float',
  decimal: 'Float',
  boolean: 'Boolean',
  json: 'JSON',
  blocks: 'JSON',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  timestamp: 'DateTime',
};

/** The GraphQL scalar of a scalar attribute (an enumeration's own enum type is the caller's). */
export const scalarTypeOf = (type: ScalarType): string => SCALAR_TYPE[type];

/** The filter input of a GraphQL scalar: `StringFilterInput`. */
export const scalarFilterOf = (graphqlScalar: string): string => `${graphqlScalar}FilterInput`;
