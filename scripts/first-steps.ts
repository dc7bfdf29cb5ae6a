/**
 * What an empty project should do next, told once at start: add a content type when there is
 * none, or create a first entry when no document exists yet. Nothing once there is content.
 */
import type { App, ContentType } from '../index.ts';

/** The example entry a curl line sends: the first required text attribute, else the first text one. */
function exampleData(ct: ContentType): Record<string, string> {
  const texts = Object.entries(ct.attributes).filter(([, a]) => a.type === 'string' || a.type === 'text');
  const [name] = texts.find(([, a]) => (a as { required?: boolean }).required) ?? texts[0] ?? [];
  return name ? { [name]: 'Hello' } : {};
}

/** A curl line creating an entry of `ct` (a single type is written with PUT, as the REST API takes it). */
function createCommand(ct: ContentType, apiUrl: string, authorized: boolean): string {
  const single = ct.kind === 'singleType';
  const target = `${apiUrl}/${single ? ct.info.singularName : ct.info.pluralName}`;
  const auth = authorized ? ` -H "authorization: Bearer $KEY"` : '';
  const body = JSON.stringify({ data: exampleData(ct) });
  return `curl -X ${single ? 'PUT' : 'POST'} ${target}${auth} -H 'content-type: application/json' -d '${body}'`;
}

/**
 * The next step for an app with no content types or no documents yet, as lines (a sentence, then
 * commands to paste), or null. `apiUrl` is where the REST API answers; `tokenCommand` makes the key
 * the curl line sends (null: the API needs no credentials).
 */
export async function firstStep(app: App, apiUrl: string, tokenCommand: string | null): Promise<string[] | null> {
  const types = app.registry.contentTypes().filter((ct) => ct.origin === 'api');
  if (types.length === 0) return ['No content types yet: add src/api/<name>/content-types/<name>/schema.json'];
  for (const ct of types) {
    // every document has a draft (or, without draft & publish, its one row), in some locale
    if ((await app.documents(ct.uid).count({ locale: '*' })) > 0) return null;
  }
  const first = types.find((ct) => ct.kind === 'collectionType') ?? types[0];
  // `npm run -s`: npm's own header lines would end up in KEY
  const key = tokenCommand ? [`KEY=$(${tokenCommand.replace(/^npm run /, 'npm run -s ')})`] : [];
  return ['Create your first entry:', ...key, createCommand(first, apiUrl, tokenCommand !== null)];
}
