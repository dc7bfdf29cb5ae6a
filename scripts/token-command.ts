/**
 * `vellum token create|list|revoke`: API tokens from the command line, on the app's database.
 * The app is started (connect, sync, bootstrap: the salt may live in the database) but never
 * listens. With the embedded database it attaches to the cluster a running `vellum start`
 * serves, so a key can be made while the server runs, and the server accepts it at once.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { App } from '../index.ts';
import { usersPermissionsPlugin } from '../plugins/users-permissions/index.ts';
import {
  checkTokenInput,
  type TokenInfo,
  type TokenInput,
  type TokenInputNames,
  type TokenType,
} from '../plugins/users-permissions/tokens.ts';

export const TOKEN_USAGE = `usage: vellum token <create|list|revoke> [options]

  token create --name N --type full-access|read-only|custom [--actions a,b] [--lifespan 7|30|90]
               [--description D] [--app DIR]
                 create an API token; prints the key (shown only this once) alone on stdout
  token list [--app DIR]
                 one line per token: id, name, type, expiresAt or "never", lastUsedAt or "never"
  token revoke <id|name> [--app DIR]
                 delete a token; its key stops working at once

  --actions takes action uids (api::article.article.find,…) and is required by --type custom;
  without --lifespan (days) a token never expires. --app defaults to the current folder (in
  Vellum's repository, examples/blog).
`;

type Parsed =
  | { command: 'create'; appDir: string; input: TokenInput }
  | { command: 'list'; appDir: string }
  | { command: 'revoke'; appDir: string; target: string };

/** What the command printed and its exit code; nothing is printed by the command itself. */
export interface CommandResult {
  code: number;
  stdout: string[];
  stderr: string[];
}

/** The create options that set TokenInput's fields, for the token service's messages. */
const OPTION_NAMES: TokenInputNames = {
  name: '--name',
  type: '--type',
  permissions: '--actions',
  lifespan: '--lifespan',
};

const usage = (message: string): CommandResult => ({
  code: 2,
  stdout: [],
  stderr: [`vellum token: ${message}`, '', TOKEN_USAGE],
});

/** Parse `token …` arguments without touching the app, so mistakes are told before any database starts. */
export function parseTokenArgs(argv: string[], defaultAppDir: string): Parsed | CommandResult {
  const [command, ...rest] = argv;
  if (command !== 'create' && command !== 'list' && command !== 'revoke') {
    return usage(command ? `unknown subcommand "${command}"` : 'which subcommand?');
  }
  let values: Record<string, string | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: command === 'revoke',
      options:
        command === 'create'
          ? {
              app: { type: 'string' },
              name: { type: 'string' },
              type: { type: 'string' },
              actions: { type: 'string' },
              lifespan: { type: 'string' },
              description: { type: 'string' },
            }
          : { app: { type: 'string' } },
    }) as { values: Record<string, string | undefined>; positionals: string[] });
  } catch (err) {
    return usage((err as Error).message); // node's own wording: unknown option, missing value…
  }
  const appDir = values.app ? path.resolve(values.app) : defaultAppDir;
  if (command === 'list') return { command, appDir };
  if (command === 'revoke') {
    if (positionals.length !== 1) return usage('revoke takes one token id or name');
    return { command, appDir, target: positionals[0] };
  }

  const type = values.type as TokenType; // whatever was typed: checkTokenInput below says if it is not one
  const actions = (values.actions ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const input: TokenInput = {
    name: values.name ?? '',
    type,
    description: values.description,
    permissions: type === 'custom' ? actions : undefined,
    lifespan: values.lifespan === undefined ? null : Number(values.lifespan),
  };
  // the token service's own rules, told in terms of the options; only what is about the
  // options themselves is checked here
  const problem = checkTokenInput(input, OPTION_NAMES);
  if (problem) return usage(problem);
  if (type !== 'custom' && values.actions !== undefined)
    return usage(`--actions only applies to --type custom (a ${type} token grants its own set)`);
  return { command, appDir, input };
}

/**
 * Boot the app without listening, run `fn`, and shut down. Logs go to stderr at `warn`, so
 * stdout holds only what the command prints (the key of `create`, alone).
 */
async function withApp<T>(appDir: string, fn: (app: App) => Promise<T>): Promise<T> {
  const logger = pino({ level: 'warn' }, pino.destination({ dest: 2, sync: true }));
  // loaded here, after parsing: the app's modules take most of a second to import
  const { createVellumApp } = await import('../index.ts');
  const app = await createVellumApp({ appDir, logger, attachEmbedded: true });
  try {
    await app.start();
    return await fn(app);
  } finally {
    // a key already made must still be shown: a failed shutdown is only reported
    await app.destroy().catch((err: unknown) => logger.error({ err }, 'shutdown failed'));
  }
}

const when = (value: unknown): string => (value ? String(value) : 'never');
const listLine = (t: TokenInfo): string => `${t.id}\t${t.name}\t${t.type}\t${when(t.expiresAt)}\t${when(t.lastUsedAt)}`;

/** Run `vellum token …`; AppErrors (a missing token, a duplicate name) are thrown for the CLI to report. */
export async function runTokenCommand(argv: string[], defaultAppDir: string): Promise<CommandResult> {
  const parsed = parseTokenArgs(argv, defaultAppDir);
  if ('code' in parsed) return parsed;
  return withApp(parsed.appDir, async (app): Promise<CommandResult> => {
    const tokens = app.plugin(usersPermissionsPlugin).tokens;
    switch (parsed.command) {
      case 'create': {
        const { token, accessKey } = await tokens.create(parsed.input);
        const expires = token.expiresAt ? `expires ${String(token.expiresAt)}` : 'never expires';
        return {
          code: 0,
          stderr: [
            `created API token ${token.id} "${token.name}" (${token.type}, ${expires}); the key is shown only now:`,
          ],
          stdout: [accessKey],
        };
      }
      case 'list': {
        const all = await tokens.list();
        return { code: 0, stdout: all.map(listLine), stderr: all.length ? [] : ['no API tokens'] };
      }
      case 'revoke': {
        const token = await tokens.revoke(parsed.target);
        return { code: 0, stdout: [`revoked API token ${token.id} "${token.name}"`], stderr: [] };
      }
    }
  });
}
