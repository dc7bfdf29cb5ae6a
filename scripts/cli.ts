#!/usr/bin/env -S npx tsx
/**
 * The `vellum` command line. `start [--app DIR]` serves an app folder in Strapi layout
 * (default: examples/blog) until SIGINT/SIGTERM, then shuts down gracefully; `token …` manages
 * API tokens on the same app's database (see token-command.ts).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigurationError, isAppError, type AppError, type FieldIssue } from '../core/errors.ts';
import { announceStart } from './banner.ts';
import { ROOT } from './root.ts';
import { runTokenCommand, TOKEN_USAGE } from './token-command.ts';

// on top of server.shutdownTimeoutMs (SHUTDOWN_TIMEOUT_MS), for pool close and the embedded server's shutdown
const SHUTDOWN_GRACE_MS = 5000;

const USAGE = `usage: vellum <command> [options]

commands:
  start [--app DIR]   serve the app in DIR (default: examples/blog)
  token …             create, list and revoke API tokens (vellum token --help)
`;

async function start(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { app: { type: 'string' } }, strict: true });
  const appDir = values.app ? path.resolve(values.app) : path.join(ROOT, 'examples/blog');
  // loaded on use: importing the app's modules takes most of a second, which `help` and usage
  // mistakes need not wait for
  const { createVellumApp } = await import('../index.ts');
  let stopping = false;
  const stop = async (reason: string, code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.log.info({ reason }, 'shutting down');
    // the kernel bounds its shutdown by shutdownTimeoutMs; this is the backstop for a plugin's destroy that hangs
    const limit = Number(app.config.server.shutdownTimeoutMs ?? 10000) + SHUTDOWN_GRACE_MS;
    setTimeout(() => {
      app.log.error({ limitMs: limit }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, limit).unref();
    try {
      await app.destroy();
      process.exit(code);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  // the database is gone for good (logged by the app): exit non-zero so a process supervisor restarts us
  const app = await createVellumApp({ appDir, onFatal: () => void stop('database lost', 1) });
  process.on('SIGINT', () => void stop('SIGINT', 0));
  process.on('SIGTERM', () => void stop('SIGTERM', 0));
  try {
    const { url } = await app.listen();
    await announceStart(app, { url, appDir, defaultAppDir: path.join(ROOT, 'examples/blog') });
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
    case 'token': {
      if (rest[0] === 'help' || rest[0] === '--help') {
        process.stdout.write(TOKEN_USAGE);
        return;
      }
      const result = await runTokenCommand(rest, path.join(ROOT, 'examples/blog'));
      for (const line of result.stderr) process.stderr.write(`${line}\n`);
      for (const line of result.stdout) process.stdout.write(`${line}\n`);
      process.exitCode = result.code;
      return;
    }
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

/** An AppError as a line per problem: "This attribute must be unique" alone does not say which. */
function problems(err: AppError): string {
  const issues = Array.isArray(err.details.errors) ? (err.details.errors as FieldIssue[]) : [];
  return issues.length ? issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('\n') : err.message;
}

main().catch((err: unknown) => {
  // a mistake in the app (bad schema, bad config) or in a command's input (no such token) is
  // told plainly, without a stack trace
  if (err instanceof ConfigurationError) process.stderr.write(`vellum: ${err.message}\n`);
  else if (isAppError(err)) process.stderr.write(`vellum: ${problems(err)}\n`);
  else process.stderr.write(`vellum: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
