import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../helpers/app.ts';

/** Every module specifier a source file imports or re-exports, resolved to a path under the repository. */
function importsOf(dir: string): Array<{ file: string; target: string }> {
  const out: Array<{ file: string; target: string }> = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    if (!name.endsWith('.ts')) continue;
    const file = path.join(dir, name);
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/g)) {
      if (m[1].startsWith('.')) out.push({ file, target: path.relative(ROOT, path.resolve(ROOT, dir, m[1])) });
    }
  }
  return out;
}

describe('the query compiler and the document service', () => {
  it('query/ compiles on its own: none of its modules imports the document service, a plugin or the kernel', () => {
    const imports = importsOf('core/query');
    expect(imports.length).toBeGreaterThan(20);
    const backwards = imports.filter((i) => /^(core\/(documents|kernel|http)|plugins)\//.test(i.target));
    expect(backwards).toEqual([]);
  });

  it('documents/ orchestrates: it imports the compiler, never the other way round', () => {
    const imports = importsOf('core/documents');
    expect(imports.some((i) => i.target.startsWith('core/query/'))).toBe(true);
    expect(imports.filter((i) => i.target.startsWith('plugins/'))).toEqual([]);
  });
});
