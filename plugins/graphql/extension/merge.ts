/**
 * Strapi merges extensions with lodash's `fp.merge` (a copy, never the inputs): plain objects
 * key by key, arrays index by index, the second argument winning where both set a value.
 */
import merge from 'lodash.merge';

export const mergeDeep = <T extends object>(first: T, second: T): T => merge({}, first, second) as T;
