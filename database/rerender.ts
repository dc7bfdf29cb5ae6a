/**
 * Rendering again, in the background, the rows a start left of an older render (sync.ts
 * `syncRender`: the schema changed what a row's kept JSON holds, and the table has more rows than a
 * start renders itself). Until a row is rendered again, reads build its JSON (render-sql.ts checks
 * the row's `RENDER_VERSION`), so answers are right throughout; only slower.
 *
 * Batches walk the primary key, each one statement that locks its rows with SKIP LOCKED: a row a
 * request is writing is skipped rather than waited for (its write renders it anyway), and no
 * batch waits on a request or makes one wait long. What a pass skipped, the next pass takes; a
 * pass stops early when the render it was started for is no longer the table's (another instance
 * started with another schema and renders for it).
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { quote } from '../core/query/sql.ts';
import { RENDER_VERSION, RENDERED } from '../core/query/render-sql.ts';
import { type StaleRender, staleRender } from './sync.ts';

export interface RerenderOptions {
  /** rows per statement (each holds their locks for about 0.6 ms a row) */
  batch?: number;
  /** pause between batches, leaving the database to requests */
  pauseMs?: number;
  /** passes over a table before giving up on rows that stay stale */
  passes?: number;
}

export interface Rerender {
  /** settles when every table is done, or stopped (never rejects) */
  readonly done: Promise<void>;
  /** stop after the statement under way; settles when it has */
  stop(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Render the stale rows of `tables` again, one batch at a time, until done or stopped. */
export function rerenderInBackground(
  db: Knex,
  tables: StaleRender[],
  log: Pick<Logger, 'info' | 'warn'>,
  options: RerenderOptions = {},
): Rerender {
  const batch = options.batch ?? 200;
  const pauseMs = options.pauseMs ?? 5;
  const passes = options.passes ?? 5;
  let stopped = false;

  /** Whether the table's trigger still renders `version` (the comment sync.ts keeps). */
  const stillCurrent = async ({ table, version }: StaleRender): Promise<boolean> => {
    const { rows } = await db.raw(
      `SELECT col_description(attrelid, attnum) AS v FROM pg_attribute
       WHERE attrelid = quote_ident(?)::regclass AND attname = ? AND NOT attisdropped`,
      [table, RENDER_VERSION],
    );
    return rows[0]?.v === String(version);
  };

  /** One pass over `t`: the number of rows rendered again. */
  const pass = async ({ table, version }: StaleRender): Promise<number> => {
    const t = quote(table);
    let after = '0';
    let total = 0;
    while (!stopped) {
      // the trigger renders each updated row; ids are bigints, kept as text
      const { rows } = await db.raw(
        `WITH b AS (SELECT "id" FROM ${t} WHERE "id" > ?::bigint AND ${staleRender(version)}
                    ORDER BY "id" LIMIT ${batch | 0} FOR NO KEY UPDATE SKIP LOCKED),
              u AS (UPDATE ${t} SET ${quote(RENDERED)} = NULL FROM b WHERE ${t}."id" = b."id" RETURNING 1)
         SELECT (SELECT max("id")::text FROM b) AS last, (SELECT count(*)::int FROM u) AS n`,
        [after],
      );
      if (rows[0].last === null) break;
      after = rows[0].last;
      total += rows[0].n;
      await sleep(pauseMs);
    }
    return total;
  };

  const run = async (): Promise<void> => {
    for (const stale of tables) {
      const started = Date.now();
      let rendered = 0;
      try {
        for (let i = 0; i < passes && !stopped; i++) {
          if (!(await stillCurrent(stale))) break;
          rendered += await pass(stale);
          const { rows } = await db.raw(
            `SELECT EXISTS (SELECT 1 FROM ${quote(stale.table)} WHERE ${staleRender(stale.version)}) AS left`,
          );
          if (!rows[0].left) break;
          await sleep(pauseMs * 20);
        }
        if (!stopped) log.info({ table: stale.table, rows: rendered, ms: Date.now() - started }, 'rows rendered again');
      } catch (err) {
        // a pool closed under it (the app stopping) or a statement cancelled: reads still build what is stale
        if (!stopped) log.warn({ err, table: stale.table }, 'rendering rows again failed; reads build them');
      }
    }
  };

  const done = run();
  return {
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}
