import { describe, expect, it } from 'vitest';
import { inlineValues } from '../../../../core/documents/inline-values.ts';

describe('inlineValues', () => {
  it('writes each value as the literal of the text node-postgres would send for it', () => {
    expect(inlineValues('SELECT ?, ?, ?, ?, ?, ?', ['a', "it's", 25, -2.5, true, null])).toBe(
      `SELECT 'a', 'it''s', '25', '-2.5', 'true', NULL`,
    );
    // a backslash is doubled in an escape string, as pg.escapeLiteral writes it
    expect(inlineValues('SELECT ?', ['a\\b'])).toBe(`SELECT  E'a\\\\b'`);
  });

  it('writes an array in PostgreSQL array form, every element quoted', () => {
    expect(inlineValues('SELECT ? ', [['x', 'y"z', 'a,b', 'c\\d', 3, null]])).toBe(
      `SELECT  E'{"x","y\\\\"z","a,b","c\\\\\\\\d","3",NULL}' `,
    );
  });

  it("leaves knex's escaped question marks (jsonb operators) for knex", () => {
    expect(inlineValues('SELECT data \\? ? FROM t WHERE x = ?', ['k', 1])).toBe(
      `SELECT data \\? 'k' FROM t WHERE x = '1'`,
    );
  });

  it('writes nothing when a value cannot be written as the parameter it was', () => {
    const refused: unknown[] = [
      'what?',
      'a\u0000b',
      new Date(0),
      Buffer.from('x'),
      { a: 1 },
      Number.NaN,
      Number.POSITIVE_INFINITY,
      [['nested']],
      [true],
      ['what?'],
      1n,
      undefined,
    ];
    for (const v of refused) expect(inlineValues('SELECT ?', [v]), String(v)).toBeNull();
  });

  it('writes nothing when the placeholders and the values do not pair up', () => {
    expect(inlineValues('SELECT ?, ?', ['a'])).toBeNull();
    expect(inlineValues('SELECT ?', ['a', 'b'])).toBeNull();
    // knex strips the backslashes from a `?` after an even number of them: not what a read writes
    expect(inlineValues('SELECT \\\\?', ['a'])).toBeNull();
  });
});
