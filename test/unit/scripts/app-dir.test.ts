import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAppDir } from '../../../scripts/app-dir.ts';
import { ROOT } from '../../../scripts/root.ts';
import { ROOT as TEST_ROOT } from '../../helpers/app.ts';

describe('the app a command works on without --app', () => {
  it('is examples/blog in the repository, the current folder anywhere else', () => {
    expect(ROOT).toBe(TEST_ROOT);
    expect(defaultAppDir(ROOT)).toBe(path.join(ROOT, 'examples/blog'));
    expect(defaultAppDir('/srv/my-app')).toBe('/srv/my-app');
    expect(defaultAppDir(path.join(ROOT, 'examples/blog'))).toBe(path.join(ROOT, 'examples/blog'));
  });
});
