/**
 * The `vellum` command line. `new DIR` creates a project (new-command.ts); `start [--app DIR]`
 * serves an app folder in Strapi layout until SIGINT/SIGTERM, then shuts down gracefully;
 * `develop` restarts `start` on changes (develop-command.ts); `token …` manages API tokens on the
 * same app's database (token-command.ts). Without --app: the current folder, or examples/blog in
 * Vellum's repository. Each command's module is loaded on use, so `new` and `help` load no
 * dependency and none waits for the app's modules.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigurationError, isAppError, type AppError, type FieldIssue } from '../core/errors.ts';
import { ROOT } from './root.ts';
import { defaultAppDir } from './app-dir.ts';
import type { CommandResult } from './token-command.ts';

// on top of server.shutdownTimeoutMs (SHUTDOWN_TIMEOUT_MS), for pool close and the embedded server's shutdown
const SHUTDOWN_GRACE_MS = 5000;

const USAGE = `usage: vellum <command> [options]

commands:
  new DIR [--js]      create a project in DIR (vellum new --help)
  develop [--app DIR] serve the app, restarting it when its src/ or config/ change
  start [--app DIR]   serve the app in DIR
  token …             create, list and revoke API tokens (vellum token --help)

DIR defaults to the current folder (in Vellum's repository: examples/blog).
`;

async function start(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { app: { type: 'string' } }, strict: true });
  const appDir = values.app ? path.resolve(values.app) : defaultAppDir();
  // loaded on use: importing the app's modules takes most of a second, which `help` and usage
  // mistakes need not wait for, and `new` runs before the project's dependencies are installed
  const [{ createVellumApp }, { announceStart }] = await Promise.all([import('../index.ts'), import('./banner.ts')]);
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

/** A command's printed lines and exit code. */
function report(result: CommandResult): void {
  for (const line of result.stderr) process.stderr.write(`${line}\n`);
  for (const line of result.stdout) process.stdout.write(`${line}\n`);
  process.exitCode = result.code;
}

const wantsHelp = (argv: string[]): boolean => ['help', '--help', '-h'].includes(argv[0] ?? '');

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'new': {
      const { NEW_USAGE, runNewCommand } = await import('./new-command.ts');
      if (wantsHelp(rest)) return void process.stdout.write(NEW_USAGE);
      return report(await runNewCommand(rest, process.cwd()));
    }
    case 'develop': {
      const { DEVELOP_USAGE, runDevelop } = await import('./develop-command.ts');
      if (wantsHelp(rest)) return void process.stdout.write(DEVELOP_USAGE);
      const cliFile = fileURLToPath(import.meta.url);
      process.exitCode = await runDevelop({ argv: rest, cliFile, defaultAppDir: defaultAppDir() });
      return;
    }
    case 'start':
      return start(rest);
    case 'token': {
      const { TOKEN_USAGE, runTokenCommand } = await import('./token-command.ts');
      if (wantsHelp(rest)) return void process.stdout.write(TOKEN_USAGE);
      return report(await runTokenCommand(rest, defaultAppDir()));
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
