import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../../../../core/http/server.ts';

const UNAVAILABLE = 'The database is unavailable; try again shortly';
const body = { jsonLimit: '1mb', formLimit: '1mb', textLimit: '1mb' };

describe('the HTTP error envelope', () => {
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close(100);
  });

  it('answers 503 ServiceUnavailableError for a database that cannot be reached, 500 for other failures', async () => {
    server = createHttpServer({ log: pino({ level: 'silent' }), body });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    server.route({ method: 'GET', path: '/down', handler: () => { throw refused; } });
    server.route({ method: 'GET', path: '/bug', handler: () => { throw new Error('a bug'); } });
    const { port } = await server.listen(0, '127.0.0.1');

    const down = await fetch(`http://127.0.0.1:${port}/down`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      data: null,
      error: { status: 503, name: 'ServiceUnavailableError', message: UNAVAILABLE, details: {} },
    });
    const bug = await fetch(`http://127.0.0.1:${port}/bug`);
    expect(bug.status).toBe(500);
    expect((await bug.json()).error.name).toBe('InternalServerError');
  });
});
