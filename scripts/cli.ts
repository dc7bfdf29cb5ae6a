#!/usr/bin/env -S npx tsx
/**
 * The `vellum` command line. `start [--app DIR]` serves an app folder in Strapi layout
 * (default: examples/blog) until SIGINT/SIGTERM, then shuts down gracefully.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createVellumApp } from '../index.ts';
import { ConfigurationError } from '../core/errors.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: vellum <command> [options]

commands:
  start [--app DIR]   serve the app in DIR (default: examples/blog)
`;

async function start(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { app: { type: 'string' } }, strict: true });
  const appDir = values.app ? path.resolve(values.app) : path.join(ROOT, 'examples/blog');
  const app = await createVellumApp({ appDir });
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.destroy();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  try {
    const { url } = await app.listen();
    app.log.info({ url, appDir }, `Vellum is serving ${path.relative(process.cwd(), appDir) || '.'} at ${url}`);
  } catch (err) {
    await app.destroy().catch(() => undefined);
    throw err;
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'start':
      return start(rest);
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(USAGE);
      return;
    default:
      process.stderr.write(`unknown command "${command}"\n\n${USAGE}`);
      process.exitCode = 2;
  }
}

main().catch((err: unknown) => {
  // a mistake in the app (bad schema, bad config) is told plainly, without a stack trace
  if (err instanceof ConfigurationError) process.stderr.write(`vellum: ${err.message}\n`);
  else process.stderr.write(`vellum: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
