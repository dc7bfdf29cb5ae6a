/**
 * An abandoned request's statements are skipped or cancelled, but never the statement that ends
 * its transaction: a skipped ROLLBACK sent the connection back to the pool inside a failed
 * transaction, and every later request on it failed ("current transaction is aborted").
 */
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { attachCancellation, createCancellation } from '../../../database/cancellation.ts';

type Callback = (err: Error | null, result?: unknown) => void;

/** A client whose `query` records what reached it and answers at once. */
function recordingClient(): { client: pg.Client; sent: string[] } {
  const sent: string[] = [];
  const client = {
    processID: 0,
    query(config: string | { text: string }, callback: Callback) {
      sent.push(typeof config === 'string' ? config : config.text);
      callback(null, { rows: [] });
    },
  } as unknown as pg.Client;
  return { client, sent };
}

const run = (client: pg.Client, text: string | { text: string }): Promise<Error | null> =>
  new Promise((resolve) =>
    (client.query as unknown as (c: unknown, cb: Callback) => void)(text, (err) => resolve(err)),
  );

describe('attachCancellation', () => {
  it("skips an abandoned request's statements but still sends the end of its transaction", async () => {
    const { client, sent } = recordingClient();
    const cancellation = createCancellation();
    attachCancellation(client, cancellation, () => {
      throw new Error('no cancel is needed for statements that never start');
    });
    const abandoned = new AbortController();
    abandoned.abort();
    const errors = await cancellation.run(abandoned.signal, async () => [
      await run(client, 'select 1'),
      await run(client, 'ROLLBACK'),
      await run(client, { text: 'ROLLBACK TO SAVEPOINT trx2' }),
      await run(client, 'COMMIT;'),
    ]);
    expect((errors[0] as Error & { code?: string }).code).toBe('57014');
    expect(errors.slice(1)).toEqual([null, null, null]);
    expect(sent).toEqual(['ROLLBACK', 'ROLLBACK TO SAVEPOINT trx2', 'COMMIT;']);
  });
});
