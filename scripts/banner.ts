/**
 * The start banner, printed once `vellum start` listens: where the APIs are (the app's endpoint
 * list, which plugins add to), which database holds the data, how to make an API token, and for an
 * empty project what to do next. For a person at a terminal (`app.logFormat` pretty) a few lines;
 * otherwise (production, a pipe) one structured log line with the same facts.
 */
import path from 'node:path';
import { styleText } from 'node:util';
import { type App, type DatabaseSummary, restApiConfig } from '../index.ts';
import { usersPermissionsPlugin } from '../plugins/users-permissions/index.ts';
import { firstStep } from './first-steps.ts';
import { ROOT } from './root.ts';

export interface StartInfo {
  /** where the server listens, as `app.listen()` answered */
  url: string;
  appDir: string;
  /** the app `vellum token` works on without `--app` */
  defaultAppDir: string;
}

/** A folder as a person at this terminal would type it. */
const shownPath = (dir: string): string => {
  const rel = path.relative(process.cwd(), dir);
  return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? dir : rel;
};

/** Listening on every interface, the address a person opens is localhost (`listen()` says 127.0.0.1). */
function personUrl(url: string, host: unknown): string {
  return host === '0.0.0.0' || host === '::' ? url.replace('//127.0.0.1:', '//localhost:') : url;
}

/** The token command as this CLI is run: from a checkout of Vellum, or installed in a project. */
function tokenCommand(info: StartInfo): string {
  const app = path.resolve(info.appDir) === path.resolve(info.defaultAppDir) ? '' : ` --app ${shownPath(info.appDir)}`;
  const args = `token create --type full-access --name dev${app}`;
  const installed = ROOT.split(path.sep).includes('node_modules');
  return installed ? `npx vellum ${args}` : `npm run vellum -- ${args}`;
}

function describeDatabase(db: DatabaseSummary): string {
  if (db.kind === 'embedded') {
    const moved = path.relative(db.dataDir, db.clusterDir).startsWith('..') ? ` (cluster in ${db.clusterDir})` : '';
    return `embedded PostgreSQL, data in ${shownPath(db.dataDir)}${moved}`;
  }
  const where = `${db.host}${db.port === null ? '' : `:${db.port}`}`;
  return `PostgreSQL ${db.database ?? '(default database)'} on ${where}${db.user ? ` as ${db.user}` : ''}`;
}

/** Print the banner (pretty) or log it as one line (JSON); nothing in it is a secret. */
export async function announceStart(app: App, info: StartInfo): Promise<void> {
  const pretty = app.logFormat === 'pretty';
  const base = pretty ? personUrl(info.url, app.config.server.host) : info.url;
  const endpoints = app.endpoints.list().map((e) => ({ name: e.name, url: base + e.path }));
  const database = app.databaseSummary();
  const token = app.hasPlugin(usersPermissionsPlugin) ? tokenCommand(info) : null;
  const next = await firstStep(app, base + restApiConfig(app.config).prefix, token);
  const headline = `Vellum is serving ${shownPath(info.appDir)} at ${base}`;
  if (!pretty) {
    const byName = Object.fromEntries(endpoints.map((e) => [e.name, e.url]));
    app.log.info(
      { url: info.url, appDir: info.appDir, endpoints: byName, database, tokenCommand: token, next },
      headline,
    );
    return;
  }
  const color = process.stdout.isTTY && process.stdout.hasColors();
  const bold = (text: string): string => (color ? styleText('bold', text) : text);
  const rows: Array<[string, string]> = [
    ...endpoints.map((e): [string, string] => [e.name, e.url]),
    ['Database', describeDatabase(database)],
    ...(token ? [['API token', token] as [string, string]] : []),
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  const lines = ['', bold(headline), '', ...rows.map(([name, value]) => `  ${name.padEnd(width)}${value}`)];
  if (next) lines.push('', `  ${bold(next[0])}`, ...next.slice(1).map((l) => `    ${l}`));
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
