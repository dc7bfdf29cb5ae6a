import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface Ran {
  code: number | null;
  output: string;
}

/** Run a command to completion; stdout and stderr together, as a person would read them. */
export function run(command: string, args: string[], options: SpawnOptions & { timeoutMs?: number }): Promise<Ran> {
  const { timeoutMs = 240_000, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c) => {
    output += c;
  });
  child.stderr!.on('data', (c) => {
    output += c;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} took over ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export interface Served {
  child: ChildProcess;
  output(): string;
  /** resolves with the `count`-th match of `pattern`'s first group in the output so far and to come */
  waitFor(pattern: RegExp, count?: number, timeoutMs?: number): Promise<string>;
  /** signal the whole process group (npm, its shell, the server); resolves once all of it has exited */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * A long-running command (`npm start`) in a process group of its own: npm runs its script
 * through a shell that does not pass signals on, so the group is signalled, as a terminal's
 * Ctrl-C does.
 */
export function serve(command: string, args: string[], options: SpawnOptions): Served {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (c: Buffer): void => {
    output += c;
    for (const l of listeners) l();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return {
    child,
    output: () => output,
    waitFor(pattern, count = 1, timeoutMs = 60_000) {
      const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = [...output.matchAll(global)];
          if (found.length < count) return;
          done();
          resolve(found[count - 1][1]);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${count}× ${pattern} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        void exit.then((code) => {
          if (!listeners.has(check)) return;
          done();
          reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
        });
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      const group = (s: NodeJS.Signals | 0): boolean => {
        try {
          process.kill(-child.pid!, s);
          return true;
        } catch {
          return false; // no process left in the group
        }
      };
      group(signal);
      const code = await exit;
      // npm may exit before the server it ran has finished its graceful shutdown: wait for the whole group,
      // and kill what hangs rather than outlive the test
      for (const deadline = Date.now() + 30_000; group(0); await new Promise((r) => setTimeout(r, 100))) {
        if (Date.now() > deadline) group('SIGKILL');
      }
      return code;
    },
  };
}
