import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addPluginEntries, createRegistries, loadAppRegistries } from '../../../../core/kernel/registries.ts';

async function appWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vellum-registries-'));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

describe('policies and middlewares registries', () => {
  it("names the app's files global:: and api::<api>. by their base name, in any module format", async () => {
    const registries = createRegistries();
    await loadAppRegistries(
      registries,
      await appWith({
        'src/policies/is-owner.ts': 'export default () => "ts";',
        'src/policies/legacy.cjs': 'module.exports = () => "cjs";',
        'src/policies/types.d.ts': 'export {};',
        'src/middlewares/timer.mjs': 'export default () => "mjs";',
        'src/api/article/policies/is-author.js': 'export default () => "api";',
        'src/api/article/middlewares/stamp.ts': 'export default () => "api-mw";',
      }),
    );
    const call = (f: unknown) => (f as () => unknown)();
    expect(call(registries.policy('is-owner'))).toBe('ts');
    expect(call(registries.policy('global::is-owner'))).toBe('ts');
    expect(call(registries.policy('legacy'))).toBe('cjs');
    expect(call(registries.middleware('global::timer'))).toBe('mjs');
    expect(call(registries.policy('api::article.is-author'))).toBe('api');
    expect(call(registries.middleware('api::article.stamp'))).toBe('api-mw');
    expect(() => registries.policy('types.d')).toThrow(/Unknown policy/);
  });

  it('refuses an unknown name, listing the known ones', () => {
    const registries = createRegistries();
    addPluginEntries(registries, { name: 'gate', policies: { open: () => true }, middlewares: { stamp: () => null } });
    expect(() => registries.policy('is-owner')).toThrow('Unknown policy "is-owner" (known: plugin::gate.open)');
    expect(() => registries.middleware('api::a.b')).toThrow(
      'Unknown middleware "api::a.b" (known: plugin::gate.stamp)',
    );
    expect(() => createRegistries().policy('x')).toThrow('Unknown policy "x" (known: none)');
  });

  it('refuses a name declared twice and an entry that is not a function', () => {
    const registries = createRegistries();
    registries.add('policy', 'global::x', () => true);
    expect(() => registries.add('policy', 'global::x', () => true)).toThrow('The policy "global::x" is declared twice');
    expect(() => registries.add('middleware', 'global::y', {})).toThrow('must export a function');
  });
});
