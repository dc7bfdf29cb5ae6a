/**
 * Keeps the embedded postmaster running for database/embedded.ts: when it exits without being
 * asked to (killed, crashed), it is started again on the same cluster and port, so the app's
 * connection URL stays valid and its pool reconnects by itself. Restarts are bounded: after
 * `restarts` failed attempts in a row (with backoff), or a server that keeps dying soon after
 * each restart, the supervisor gives up and reports it through `onFatal` (the CLI then exits
 * non-zero, for a process supervisor to take over).
 */
import type { ChildProcess } from 'node:child_process';
import { stopPostmaster } from './embedded-process.ts';

export interface SupervisorLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface SupervisorOptions {
  /** Start the postmaster again (same cluster, port and flags); resolves once it accepts connections. */
  launch(): Promise<ChildProcess>;
  /** Attempts before giving up; a server that stays up for STABLE_MS earns the full count again. 0: never restart. */
  restarts: number;
  log: SupervisorLog;
  /** The server's latest log lines, to say why it exited. */
  tail(): string;
  /** Called once when the server died and could not be restarted. */
  onFatal?: (err: Error) => void;
}

export interface Supervisor {
  /** Fast shutdown of the server (cancelling any restart); idempotent. */
  stop(): Promise<void>;
}

const BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5000;
// A server that dies again sooner than this after a restart does not earn a fresh count (no endless crash loop).
const STABLE_MS = 60_000;

/** Watch `first` (already started) and restart the server whenever it exits unasked. */
export function superviseServer(first: ChildProcess, o: SupervisorOptions): Supervisor {
  let child = first;
  let upSince = Date.now();
  let failures = 0;
  let forgetExit = stopOnExit(child);
  let stopping: Promise<void> | undefined;
  let restarting: Promise<void> = Promise.resolve();
  let wake: (() => void) | undefined;

  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const watch = (c: ChildProcess): void => {
    c.once('exit', (code, signal) => {
      if (stopping) return;
      forgetExit();
      o.log.error(`embedded PostgreSQL exited unexpectedly (code ${code}, signal ${signal})\n${o.tail()}`);
      if (Date.now() - upSince >= STABLE_MS) failures = 0;
      restarting = restart();
    });
  };

  async function restart(): Promise<void> {
    while (failures < o.restarts) {
      failures++;
      // Backends of a killed postmaster hold its shared memory until they notice; a new one refuses until then.
      await pause(Math.min(BACKOFF_MS * 2 ** (failures - 1), MAX_BACKOFF_MS));
      if (stopping) return;
      o.log.warn(`restarting embedded PostgreSQL (attempt ${failures} of ${o.restarts})`);
      try {
        const next = await o.launch();
        if (stopping) {
          await stopPostmaster(next);
          return;
        }
        child = next;
        upSince = Date.now();
        forgetExit = stopOnExit(next);
        watch(next);
        o.log.info('embedded PostgreSQL restarted');
        return;
      } catch (err) {
        o.log.error(`embedded PostgreSQL restart attempt ${failures} failed: ${(err as Error).message}`);
      }
    }
    const err = new Error(`embedded PostgreSQL exited and could not be restarted (${o.restarts} attempts)`);
    o.log.error(err.message);
    o.onFatal?.(err);
  }

  watch(child);
  return {
    stop: () =>
      (stopping ??= (async () => {
        wake?.();
        await restarting;
        forgetExit();
        await stopPostmaster(child);
      })()),
  };
}

/** A process that exits without stopping its cluster still sends the postmaster a fast shutdown. */
function stopOnExit(child: ChildProcess): () => void {
  const onExit = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.once('exit', onExit);
  return () => process.removeListener('exit', onExit);
}
