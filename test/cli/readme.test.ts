import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { validatePass } from '../../src/index.js';
import { tempDir } from './io.js';

// docs/cli.md's example, run as written by bash with the
// built command as `passmint`; what it prints is compared with the page's
// output block (locations, severities and codes exactly; message wording is the
// library's to improve, so only the first line's is checked in full).
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'dist/cli/main.js');
const built = existsSync(bin);
if (!built && process.env['CI']) throw new Error('dist/ is missing: npm test runs `npm run build` before the tests');

function block(readme: string, marker: string): string {
  const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (match?.[1] === undefined) throw new Error(`docs/cli.md has no block after <!-- ${marker} -->`);
  return match[1];
}

const located = (line: string): string => /^\S+:\d+:\d+: \w+ \S+/.exec(line)?.[0] ?? line;

describe.skipIf(!built)(`docs/cli.md's passmint example${built ? '' : ' (skipped: run `npm run build` first)'}`, () => {
  test('runs as written and prints what docs/cli.md shows', () => {
    const readme = readFileSync(join(root, 'docs/cli.md'), 'utf8');
    const script = block(readme, 'cli-example');
    const expected = block(readme, 'cli-output').trimEnd().split('\n');
    const { dir, remove } = tempDir('readme');
    try {
      // bash keeps going after the first lint's exit 1, as a terminal does.
      const output = execFileSync('bash', ['-c', `passmint() { "${process.execPath}" "${bin}" "$@"; }\n${script}`], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const actual = output.trimEnd().split('\n');
      expect(actual.map(located)).toEqual(expected.map(located));
      expect(actual[0]).toBe(expected[0]);
      expect(validatePass(JSON.parse(readFileSync(join(dir, 'pass.json'), 'utf8'))).ok).toBe(true);
    } finally {
      remove();
    }
  });
});
