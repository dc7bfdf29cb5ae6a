import { describe, expect, it } from 'vitest';
import type { Attribute } from '../../../../core/content-types/types.ts';
import { valueColumn } from '../../../../core/query/table-sql.ts';

const col = (name: string, attr: Record<string, unknown>) => valueColumn(name, attr as unknown as Attribute);

describe('valueColumn', () => {
  it('types the value as typedExpr does, NULL where the text does not cast', () => {
    expect(col('views', { type: 'integer' })).toEqual({
      name: 'v$views',
      definition:
        `numeric GENERATED ALWAYS AS (CASE WHEN ("data"->>'views') ~ ` +
        `'^-{0,1}[0-9]+([.][0-9]+){0,1}([eE][-+]{0,1}[0-9]{1,4}){0,1}$' THEN ("data"->>'views')::numeric END) STORED`,
    });
    expect(col('on', { type: 'boolean' })?.definition).toBe(
      `boolean GENERATED ALWAYS AS (CASE ("data"->>'on') WHEN 'true' THEN true WHEN 'false' THEN false END) STORED`,
    );
    expect(col('day', { type: 'date' })?.definition).toBe(`text GENERATED ALWAYS AS (("data"->>'day')) STORED`);
    // no `?`: knex would take it for a bind parameter in the DDL
    expect(col('views', { type: 'decimal' })?.definition).not.toContain('?');
  });

  it('only for attributes with read indexes, and names a column name holds whole', () => {
    expect(col('title', { type: 'string', maxLength: 200 })?.name).toBe('v$title');
    expect(col('summary', { type: 'text' })).toBeUndefined();
    expect(col('secret', { type: 'integer', private: true })).toBeUndefined();
    expect(col('meta', { type: 'json' })).toBeUndefined();
    expect(col('x'.repeat(61), { type: 'integer' })).toBeUndefined();
    expect(col('x'.repeat(60), { type: 'integer' })?.name).toHaveLength(62);
  });
});
