/**
 * CI's line-length check: no tracked TypeScript line over 120 characters. The formatter wraps
 * code at 120 but leaves strings and comments as written; this catches those.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const files = execFileSync('git', ['ls-files', '*.ts'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const long = files.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => (line.length > MAX ? [`${file}:${i + 1}: ${line.length} characters`] : [])),
);
for (const l of long) console.error(l);
if (long.length > 0) {
  console.error(`${long.length} lines over ${MAX} characters`);
  process.exit(1);
}
