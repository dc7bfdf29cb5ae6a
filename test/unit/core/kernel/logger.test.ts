import { describe, expect, it } from 'vitest';
import { chooseLogFormat } from '../../../../core/kernel/logger.ts';

describe('chooseLogFormat', () => {
  it('is pretty only at a terminal outside production when left to decide', () => {
    const auto = (nodeEnv: string | undefined, isTTY: boolean) => chooseLogFormat('auto', { nodeEnv, isTTY });
    expect(auto(undefined, true)).toBe('pretty');
    expect(auto('development', true)).toBe('pretty');
    expect(auto('test', true)).toBe('pretty');
    expect(auto('production', true)).toBe('json');
    expect(auto(undefined, false)).toBe('json');
    expect(auto('development', false)).toBe('json');
  });

  it('does what the setting says when it names a format, wherever it runs', () => {
    for (const nodeEnv of [undefined, 'production']) {
      for (const isTTY of [true, false]) {
        expect(chooseLogFormat('pretty', { nodeEnv, isTTY })).toBe('pretty');
        expect(chooseLogFormat('json', { nodeEnv, isTTY })).toBe('json');
      }
    }
  });
});
