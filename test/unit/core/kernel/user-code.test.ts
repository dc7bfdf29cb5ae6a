import { describe, expect, it } from 'vitest';
import { exportedValue } from '../../../../core/kernel/user-code.ts';

describe('exportedValue', () => {
  const hooks = { bootstrap() {} };

  it('is the default export, or CommonJS module.exports (which Node gives as the default)', () => {
    expect(exportedValue({ default: hooks })).toBe(hooks);
    const factory = () => ({});
    expect(exportedValue({ default: factory })).toBe(factory);
  });

  it('is the named exports when there is no default', () => {
    const ns = { register() {}, bootstrap() {} };
    expect(exportedValue(ns)).toBe(ns);
  });

  it('unwraps a CommonJS module compiled from ESM (exports.default with __esModule)', () => {
    expect(exportedValue({ default: { __esModule: true, default: hooks } })).toBe(hooks);
    const named = { __esModule: true, bootstrap() {} };
    expect(exportedValue({ default: named })).toBe(named);
  });
});
