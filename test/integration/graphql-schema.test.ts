/**
 * The schema the GraphQL plugin builds for the blog fixture is Strapi 4.26.2's, printed the same
 * way on both sides, except for the differences listed (with their reasons) in
 * test/fixtures/graphql/differences.ts.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { buildSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlPlugin } from '../../plugins/graphql/index.ts';
import { DIFFERENCES } from '../fixtures/graphql/differences.ts';
import { copyApp } from '../../testing.ts';
import { BLOG, ROOT, startApp, type TestApp } from '../helpers/app.ts';
import { definitions } from '../helpers/sdl.ts';

const REFERENCE = path.join(ROOT, 'test/fixtures/graphql/strapi4-blog.graphql');

const print = (sdl: string): string => printSchema(lexicographicSortSchema(buildSchema(sdl)));

/** A type's field lines without `field`: its line, its description and the blank line before it. */
function withoutField(body: string[], field: string): string[] {
  const at = body.findIndex((l) => new RegExp(`^  ${field}[(:]`).test(l));
  if (at < 0) return body;
  let start = at;
  if (body[at - 1]?.endsWith('"""')) {
    // a one-line description, or a block from its opening line
    start = at - 1;
    if (body[start].trim() === '"""') while (start > 0 && body[--start].trim() !== '"""');
  }
  if (start > 0 && body[start - 1] === '' && start < at) start--;
  const out = [...body.slice(0, start), ...body.slice(at + 1)];
  // the printer puts no blank line first
  return out[0] === '' ? out.slice(1) : out;
}

/** Strapi's definitions with the listed differences applied. */
function expected(): Map<string, string> {
  const defs = definitions(print(readFileSync(REFERENCE, 'utf8')));
  for (const d of DIFFERENCES) {
    if ('remove' in d) {
      if (!defs.delete(d.remove)) throw new Error(`no type ${d.remove} to remove`);
      continue;
    }
    const block = defs.get(d.type);
    if (!block) throw new Error(`no type ${d.type}`);
    const lines = block.split('\n');
    const [head, body, tail] = [lines[0], lines.slice(1, -1), lines.at(-1)!];
    const field = 'removeField' in d ? d.removeField : d.setField.split(':')[0];
    // a field's line, with its own description lines if it has some
    const kept = withoutField(body, field);
    if ('removeField' in d && kept.length === body.length) throw new Error(`no field ${d.type}.${field}`);
    if ('setField' in d) kept.push(`  ${d.setField}`);
    defs.set(d.type, [head, ...kept, tail].join('\n'));
  }
  return defs;
}

let t: TestApp;
let appDir: string;
beforeAll(async () => {
  // the blog's content-types without its own code: its register customizes the schema (README,
  // "Customizing GraphQL"; blog-graphql.test.ts), which a Strapi app with the same code would show too
  appDir = await copyApp(BLOG);
  await rm(path.join(appDir, 'src/index.ts'));
  t = await startApp({ appDir });
});
afterAll(async () => {
  await t?.close();
  if (appDir) await rm(appDir, { recursive: true, force: true });
});

describe('GraphQL schema of the blog fixture', () => {
  it("is Strapi 4's, but for the listed differences", () => {
    const ours = definitions(printSchema(lexicographicSortSchema(t.app.plugin(graphqlPlugin).schema())));
    const theirs = expected();
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    // compared line by line, in any order: the edits above append the fields they set
    // (blank lines only separate described fields, which removed ones may leave behind)
    const lines = (block: string | undefined) =>
      (block ?? '')
        .split('\n')
        .filter((l) => l !== '')
        .sort();
    for (const [name, block] of theirs) expect(lines(ours.get(name)), name).toEqual(lines(block));
  });

  it('gives every difference a reason', () => {
    for (const d of DIFFERENCES) expect(d.reason.length).toBeGreaterThan(10);
  });
});
