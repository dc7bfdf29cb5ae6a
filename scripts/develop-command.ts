/**
 * `vellum develop [--app DIR]`: `vellum start` as a child process, restarted when anything under
 * the app's src/ or config/ changes (a schema.json, a config file, code). The registry is frozen
 * once an app has started and Node caches the modules it imported, so a fresh process is the one
 * restart that picks up every kind of change. Changes are debounced: an editor's save, or a
 * `git checkout`, is one restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

export const DEVELOP_USAGE = `usage: vellum develop [--app DIR]

  Serve the app in DIR (default: the current folder) like \`vellum start\`, and restart it when a
  file under DIR/src or DIR/config changes.
`;

const DEBOUNCE_MS = 300;
// past this after SIGTERM (the app's own shutdown bounds itself), the child is killed
const STOP_TIMEOUT_MS = 20_000;
const WATCHED = ['src', 'config'];

export interface DevelopOptions {
  argv: string[];
  /** the CLI's own entry file, run again as `<node> <execArgv> <cli> start --app DIR` */
  cliFile: string;
  defaultAppDir: string;
  /** where the supervisor's own lines go (the app's output is the child's, inherited) */
  say?: (line: string) => void;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/** Run the supervisor until SIGINT/SIGTERM; resolves with the exit code. */
export async function runDevelop(options: DevelopOptions): Promise<number> {
  const say = options.say ?? ((line: string) => process.stderr.write(`vellum develop: ${line}\n`));
  let values: { app?: string };
  try {
    ({ values } = parseArgs({ args: options.argv, options: { app: { type: 'string' } }, strict: true }));
  } catch (err) {
    process.stderr.write(`vellum develop: ${(err as Error).message}\n\n${DEVELOP_USAGE}`);
    return 2;
  }
  const appDir = values.app ? path.resolve(values.app) : options.defaultAppDir;

  let child: ChildProcess | undefined;
  let stopping = false;
  let restarting = false;
  let pending: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const spawnApp = (): ChildProcess => {
    // the same Node flags as this process (from source, tsx's loader), and the same environment
    const c = spawn(process.execPath, [...process.execArgv, options.cliFile, 'start', '--app', appDir], {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' },
    });
    c.once('exit', (code, signal) => {
      if (c === child && !stopping && !restarting) {
        say(`the app stopped (${signal ?? `exit code ${code}`}); waiting for a change to restart it`);
      }
    });
    return c;
  };
  const stopApp = async (): Promise<void> => {
    const c = child;
    if (!c) return;
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited(c);
    clearTimeout(timer);
  };

  // one restart at a time; a change made during one leads to another once it is done
  const restart = async (): Promise<void> => {
    if (stopping || restarting || pending === undefined) return;
    const why = pending;
    pending = undefined;
    restarting = true;
    say(`${why} changed, restarting`);
    await stopApp();
    if (!stopping) child = spawnApp();
    restarting = false;
    if (pending !== undefined) void restart();
  };
  const changed = (file: string): void => {
    pending = path.relative(appDir, file) || file;
    clearTimeout(timer);
    timer = setTimeout(() => void restart(), DEBOUNCE_MS);
  };

  const watchers: FSWatcher[] = [];
  for (const name of WATCHED) {
    const dir = path.join(appDir, name);
    if (!existsSync(dir)) continue;
    // recursive watching works on Linux since Node 20, as on macOS and Windows
    watchers.push(watch(dir, { recursive: true }, (_event, file) => changed(path.join(dir, String(file ?? '')))));
  }
  say(`watching ${WATCHED.map((w) => path.join(path.relative(process.cwd(), appDir) || '.', w)).join(', ')}`);
  child = spawnApp();

  return new Promise((resolve) => {
    const stop = async (): Promise<void> => {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      for (const w of watchers) w.close();
      // a terminal's Ctrl-C reaches the child too; either way, it is waited for
      await stopApp();
      resolve(0);
    };
    process.on('SIGINT', () => void stop());
    process.on('SIGTERM', () => void stop());
  });
}
