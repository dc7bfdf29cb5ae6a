import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './app.ts';

export interface RunningCli {
  child: ChildProcess;
  url: string;
  output: () => string;
}

export const baseEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '/tmp',
  // the blog starts empty, as the tests expect; the demo content has its own test
  VELLUM_DEMO_CONTENT: 'false',
});

/** `vellum start` as a user runs it (through tsx), on a free port; resolves once it listens. */
export async function startCli(env: Record<string, string>, args: string[] = []): Promise<RunningCli> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), 'start', ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => {
    out += c;
  });
  child.stderr!.on('data', (c) => {
    out += c;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vellum start did not listen in time:\n${out}`)), 60_000);
    const check = (): void => {
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`vellum start exited with ${code}:\n${out}`));
    });
  });
  return { child, url, output: () => out };
}

/** The child's exit code, once it exited. */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}
