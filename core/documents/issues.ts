/**
 * The validation problems that input checks and the publish check share, worded as Strapi 5's
 * yup validator words them (the attribute's path as the label, indices in brackets).
 */
import { fieldLabel, type FieldIssue } from '../errors.ts';
import type { Attribute } from '../content-types/types.ts';

const typeLabel = (attr: Attribute): string => {
  if (attr.type === 'component') return attr.repeatable ? 'array' : 'object';
  if (attr.type === 'dynamiczone') return 'array';
  if (attr.type === 'relation' || attr.type === 'media') return attr.type;
  if (['integer', 'biginteger', 'float', 'decimal'].includes(attr.type)) return 'number';
  return attr.type === 'boolean' ? 'boolean' : 'string';
};

/** A value another document holds already (Strapi's wording). */
export const UNIQUE_MESSAGE = 'This attribute must be unique';

/** A required attribute left empty. */
export const requiredIssue = (path: string[], attr: Attribute): FieldIssue => ({
  path,
  message: `${fieldLabel(path)} must be a \`${typeLabel(attr)}\` type, but the final value was: \`null\`.`,
  name: 'ValidationError',
  value: null,
});

/** A required attribute a new document or instance is created without (no `value`: none was sent). */
export const undefinedIssue = (path: string[]): FieldIssue => ({
  path,
  message: `${fieldLabel(path)} must be defined.`,
  name: 'ValidationError',
});

/** Any other problem of the value at `path`. */
export const issue = (path: string[], message: string, value: unknown): FieldIssue => ({
  path,
  message: `${fieldLabel(path)} ${message}`,
  name: 'ValidationError',
  value,
});

/**
 * A repeatable component's or dynamic zone's item count outside its `min`/`max`, or null. As in
 * Strapi, `min` binds only a required attribute or a list that is not empty.
 */
export function countIssue(
  attr: { min?: number; max?: number; required?: boolean },
  n: number,
  path: string[],
  value: unknown,
): FieldIssue | null {
  if (attr.min !== undefined && (attr.required || n > 0) && n < attr.min) {
    return issue(path, `field must have at least ${attr.min} items`, value);
  }
  if (attr.max !== undefined && n > attr.max) {
    return issue(path, `field must have less than or equal to ${attr.max} items`, value);
  }
  return null;
}
