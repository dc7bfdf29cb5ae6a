import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  code?: string;
  status?: number;
  err?: { code?: string; message: string };
}

let t: TestApp;
const logged: LogLine[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logged.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  t = await startApp({ logger: pino({ level: 'debug' }, sink) });
});
afterAll(async () => {
  await t?.close();
});

const causes = (reqId: string | null): LogLine[] =>
  logged.filter((l) => l.reqId === reqId && l.msg === 'error answered: its cause');

describe('errors keep their origin', () => {
  it("answers a unique index's refusal as Strapi's 400, logs PostgreSQL's error at debug level", async () => {
    expect((await t.request('POST', '/api/tags', { data: { name: 'taken' } })).status).toBe(201);
    const res = await t.request('POST', '/api/tags', { data: { name: 'taken' } });
    expect(res.status).toBe(400);
    // the envelope is Strapi's, key for key: no code, no cause
    expect(res.text).toBe(
      JSON.stringify({
        data: null,
        error: {
          status: 400,
          name: 'ValidationError',
          message: 'This attribute must be unique',
          details: {
            errors: [
              {
                path: ['name'],
                message: 'This attribute must be unique',
                name: 'ValidationError',
                value: 'taken',
              },
            ],
          },
        },
      }),
    );
    const lines = causes(res.headers.get('x-request-id'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 20, code: 'UNIQUE', status: 400, err: { code: '23505' } });
  });

  it('logs no cause for an error made from none', async () => {
    const res = await t.request('GET', '/api/tags/nope');
    expect(res.status).toBe(404);
    expect(causes(res.headers.get('x-request-id'))).toEqual([]);
  });
});
