import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createStatementNamer, prepareStatements } from '../../../database/prepared.ts';

describe('createStatementNamer', () => {
  it('names a SQL text the same way every time, and different texts differently', () => {
    const name = createStatementNamer();
    const a = name('select 1');
    expect(a).toMatch(/^vellum_[0-9a-f]{32}$/);
    expect(name('select 1')).toBe(a);
    expect(name('select 2')).not.toBe(a);
  });

  it('stops naming new shapes past its budget, and keeps naming the known ones', () => {
    const name = createStatementNamer(2);
    const a = name('a');
    const b = name('b');
    expect(name('c')).toBeUndefined();
    expect([name('a'), name('b')]).toEqual([a, b]);
  });

  it('each namer has its own budget (one per app)', () => {
    const one = createStatementNamer(1);
    const two = createStatementNamer(1);
    one('x');
    expect(one('y')).toBeUndefined();
    expect(two('y')).toBeDefined();
  });
});

describe('prepareStatements', () => {
  type Sent = { text?: string; name?: string } | string;
  const client = () => {
    const sent: Sent[] = [];
    const c = { query: (config: Sent) => sent.push(config) } as unknown as pg.Client;
    return { c, sent };
  };

  it('names parameterized statements and reads by their text, and leaves the others alone', () => {
    const { c, sent } = client();
    prepareStatements(c, createStatementNamer());
    const q = c.query as unknown as (config: unknown) => void;
    q({ text: 'update t set a = $1', values: [1] });
    q({ text: 'update t set a = $1', values: [2] });
    q({ text: 'BEGIN', values: [] });
    q('COMMIT');
    q({ text: 'select $1', values: [1], name: 'mine' });
    q({ text: 'WITH p AS (SELECT 1) SELECT * FROM p', values: [] });
    const names = sent.map((s) => (typeof s === 'string' ? s : s.name));
    expect(names[0]).toMatch(/^vellum_[0-9a-f]{32}$/);
    expect(names.slice(1, 5)).toEqual([names[0], undefined, 'COMMIT', 'mine']);
    // a read is named even without parameters (a list whose every value is written in)
    expect(names[5]).toMatch(/^vellum_[0-9a-f]{32}$/);
    expect(names[5]).not.toBe(names[0]);
  });

  it('runs new shapes unnamed past the budget', () => {
    const { c, sent } = client();
    prepareStatements(c, createStatementNamer(1));
    const q = c.query as unknown as (config: unknown) => void;
    q({ text: 'select $1', values: [1] });
    q({ text: 'select $1 + 1', values: [1] });
    expect(sent.map((s) => (s as { name?: string }).name)).toEqual([expect.any(String), undefined]);
  });
});
