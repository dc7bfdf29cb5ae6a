import { describe, expect, it } from 'vitest';
import { orderPlugins, type Plugin } from '../../../../core/kernel/plugin.ts';

const p = (name: string, dependencies: string[] = []): Plugin<void> => ({ name, dependencies, register() {} });
const names = (list: Plugin<any>[]) => list.map((x) => x.name);

describe('orderPlugins', () => {
  it('puts dependencies first and otherwise keeps the given order', () => {
    expect(names(orderPlugins([p('graphql', ['users']), p('rest'), p('users', ['rest'])]))).toEqual([
      'rest',
      'users',
      'graphql',
    ]);
    expect(names(orderPlugins([p('a'), p('b'), p('c')]))).toEqual(['a', 'b', 'c']);
  });
  it('names both plugins when a dependency is missing', () => {
    expect(() => orderPlugins([p('graphql', ['users-permissions'])])).toThrow(
      'Plugin "graphql" depends on plugin "users-permissions", which is not installed',
    );
  });
  it('refuses cycles and duplicates', () => {
    expect(() => orderPlugins([p('a', ['b']), p('b', ['a'])])).toThrow(/cycle: a -> b -> a/);
    expect(() => orderPlugins([p('a'), p('a')])).toThrow(/installed twice/);
  });
});
