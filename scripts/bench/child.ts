/**
 * A server run in its own process, so the load generator and the server under test never
 * share an event loop (on a 2-core machine that would measure autocannon as much as the server).
 */
import { spawn } from 'node:child_process';
import { freePort, pipeLines } from '../../database/embedded-process.ts';
import type { Cleanup } from './cleanup.ts';

export interface ChildServer {
  url: string;
  pid: number;
  /** the last lines the child wrote (stdout and stderr), for error messages */
  output(): string;
}

export interface ChildServerOptions {
  name: string;
  /** arguments to `node` (the script and its own arguments) */
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** a path answering 200 once the server is ready */
  healthPath: string;
  startTimeoutMs?: number;
}

const TAIL_LINES = 40;
const STOP_GRACE_MS = 10_000;

/**
 * Start `node <args>` with PORT set to a free port, wait until `healthPath` answers 200, and
 * register its stop (SIGTERM, then SIGKILL after a grace period) with `cleanup`.
 */
export async function startChildServer(options: ChildServerOptions, cleanup: Cleanup): Promise<ChildServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // tsx is loaded as a Node hook rather than through the tsx CLI: the CLI would add a
  // process of its own between us and the server, and signals would go to it
  const child = spawn(process.execPath, ['--import', 'tsx', ...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  // whole lines only: a JSON log line cut at a chunk boundary must stay parseable (lastLoggedError)
  pipeLines(child, (line) => {
    if (tail.push(line) > TAIL_LINES) tail.shift();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = (): boolean => child.exitCode !== null || child.signalCode !== null;
  cleanup.add(`stop ${options.name}`, async () => {
    if (gone()) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  });

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (gone()) throw new Error(`${options.name} exited while starting:\n${tail.join('\n')}`);
    if (Date.now() > deadline)
      throw new Error(`${options.name} did not answer ${options.healthPath} in time:\n${tail.join('\n')}`);
    const ok = await fetch(url + options.healthPath).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pid: child.pid!, output: () => tail.join('\n') };
}
