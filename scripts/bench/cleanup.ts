/**
 * Everything the bench starts (children, databases, temp folders) registers how to undo it
 * here; `run()` undoes it in reverse order, once, whether the run ends normally, fails or is
 * interrupted.
 */
export interface Cleanup {
  add(label: string, undo: () => Promise<unknown> | unknown): void;
  /** undo everything, last first; `quiet`: don't report steps that fail (after Ctrl-C, many do) */
  run(options?: { quiet?: boolean }): Promise<void>;
}

export function createCleanup(log: (message: string) => void = (m) => process.stderr.write(`${m}\n`)): Cleanup {
  const steps: Array<{ label: string; undo: () => Promise<unknown> | unknown }> = [];
  let running: Promise<void> | undefined;
  return {
    add(label, undo) {
      steps.push({ label, undo });
    },
    run({ quiet = false } = {}) {
      running ??= (async () => {
        while (steps.length > 0) {
          const { label, undo } = steps.pop()!;
          // one failed step (a child already gone, say) must not leave the others behind
          try {
            await undo();
          } catch (err) {
            if (!quiet) log(`cleanup: ${label} failed: ${(err as Error).message}`);
          }
        }
      })();
      return running;
    },
  };
}

/**
 * Ctrl-C / SIGTERM: clean up, then exit with the conventional status. Ctrl-C also reaches
 * the children in the terminal's process group (the embedded PostgreSQL stops by itself), so
 * what fails afterwards is expected: `interrupted()` tells the caller to stay quiet about it.
 */
export function cleanUpOnSignals(cleanup: Cleanup): { interrupted(): boolean } {
  let received = false;
  const handler = (signal: NodeJS.Signals): void => {
    received = true;
    process.stderr.write(`\n${signal}: stopping what the bench started…\n`);
    // a second Ctrl-C while cleaning up must not kill the cleanup itself
    process.on(signal, () => {});
    void cleanup.run({ quiet: true }).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return { interrupted: () => received };
}
