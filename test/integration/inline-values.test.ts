/**
 * A value written into a kept read's text (core/documents/inline-values.ts) must be read by
 * PostgreSQL exactly as the bound parameter it replaces: the same statement both ways, through
 * knex and node-postgres as the reads run, gives the same answer for awkward values.
 */
import knex, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineValues } from '../../core/documents/inline-values.ts';
import type { TestDatabase } from '../../database/test-database.ts';
import { useTestDatabase } from '../helpers/database.ts';

let database: TestDatabase;
let db: Knex;

beforeAll(async () => {
  database = await useTestDatabase();
  db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const STRINGS = [
  '',
  "it's",
  "''",
  'a\\b',
  '\\',
  "\\'",
  '$1',
  '$$',
  '-- comment',
  "'); DROP TABLE x; --",
  'ünïcødé 😀',
  'line\nbreak\ttab',
  '{"json": [1, 2]}',
  "E'x'",
];

describe('values written in', () => {
  it('read as the bound parameter: text, numbers, booleans, null, in casts and comparisons', async () => {
    const cases: Array<[string, unknown[]]> = [
      ...STRINGS.map((s): [string, unknown[]] => ['SELECT ?::text AS v, length(?) AS n, ? = ? AS eq', [s, s, s, s]]),
      ['SELECT ?::numeric AS a, ?::int AS b, ?::numeric AS c, ?::bigint AS d', [2.5, -7, 1e21, 9007199254740991]],
      ['SELECT ?::boolean AS a, ?::boolean AS b, ?::text IS NULL AS c', [true, false, null]],
      ['SELECT ? AS untyped, coalesce(?, ?) AS c', ['x', null, 'y']],
      ['SELECT ?::date AS d, ?::timestamptz AS t', ['2024-02-29', '2024-01-01T10:00:00.000Z']],
      ['SELECT \'{"a": 1}\'::jsonb \\? ? AS has', ['a']],
      ['SELECT \'{"a": "it\'\'s"}\'::jsonb @> ?::jsonb AS contains', ['{"a": "it\'s"}']],
    ];
    for (const [sql, values] of cases) {
      const inlined = inlineValues(sql, values);
      expect(inlined, sql).not.toBeNull();
      const bound = await db.raw(sql, values as Knex.Value[]);
      const written = await db.raw(inlined as string, []);
      expect(written.rows, `${sql} ${JSON.stringify(values)}`).toEqual(bound.rows);
    }
  });

  it('read as the bound parameter: arrays of awkward text and numbers, with ANY', async () => {
    const arrays: unknown[][] = [STRINGS, [1, 2.5, -3], ['a', null, 'b'], [], ['{', '}', ',', '"', 'NULL', 'null']];
    for (const values of arrays) {
      const sql = 'SELECT ?::text[] AS a, cardinality(?::text[]) AS n, ? = ANY (?::text[]) AS found';
      const args = [values, values, values[0] ?? 'none', values];
      const inlined = inlineValues(sql, args);
      expect(inlined, JSON.stringify(values)).not.toBeNull();
      const bound = await db.raw(sql, args as Knex.Value[]);
      expect((await db.raw(inlined as string, [])).rows, JSON.stringify(values)).toEqual(bound.rows);
    }
  });
});
