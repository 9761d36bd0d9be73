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
      const output = execFileSync('bash', ['-c', `passmint() { "${process.execPath}" "${bin}" "$@"; }\n${script}`], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const actual = output.trimEnd().split('\n');
      expect(actual.map(located)).toEqual(expected.map(located));
      expect(actual[0]).toBe(expected[0]);
      expect(validatePass(JSON.parse(readFileSync(join(dir, 'pass.json'), 'utf8'))).ok).toBe(true);
    } finally {
      remove();
    }
  });
});

// The README's first steps, run for real: `passmint cert --dev`, render an
// example, pack, verify (the shell block, with the built command as
// `passmint` and `npx passmint`), then the README's code samples joined into
// first-pass.mjs as the README says, importing the built package.
function readmeBlock(readme: string, marker: string, language: string): string {
  const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (match?.[1] === undefined) throw new Error(`README.md has no ${language} block after <!-- ${marker} -->`);
  return match[1];
}

describe.skipIf(!built)(`the README's first steps${built ? '' : ' (skipped: run `npm run build` first)'}`, () => {
  test('cert --dev → render → pack → verify, then the code samples in first-pass.mjs, sign and verify', async () => {
    const { mkdirSync, symlinkSync, writeFileSync } = await import('node:fs');
    const { testServiceAccount } = await import('../google/keys.js');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const { dir, remove } = tempDir('first-steps');
    try {
      // Your project, beside the passmint clone (here: this repository), with the package installed.
      const project = join(dir, 'project');
      mkdirSync(join(project, 'node_modules'), { recursive: true });
      symlinkSync(root, join(dir, 'passmint'));
      symlinkSync(root, join(project, 'node_modules', 'passmint'));

      const shell = readmeBlock(readme, 'first-steps', 'sh');
      const output = execFileSync('bash', ['-e', '-c', `passmint() { "${process.execPath}" "${bin}" "$@"; }\nnpx() { "$@"; }\n${shell}`], {
        cwd: project,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const lines = output.split('\n');
      expect(lines[0]).toBe('Wrote a development identity for pass.com.example.event, team DEVTEAM123: NOT ACCEPTED BY IPHONES.');
      expect(output).toContain('Wrote ticket/pass.json');
      expect(output).toContain('ticket.pkpass: valid (0 errors, 1 warning)');
      expect(output).toMatch(/warning development-certificate /);
      const pass = JSON.parse(readFileSync(join(project, 'ticket/pass.json'), 'utf8'));
      expect([pass.passTypeIdentifier, pass.teamIdentifier]).toEqual(['pass.com.example.event', 'DEVTEAM123']);

      // The code samples, in README order, as one module; a few lines appended to report what they made.
      const samples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
      writeFileSync(join(project, 'service-account.json'), testServiceAccount().json);
      writeFileSync(
        join(project, 'first-pass.mjs'),
        `${samples}\nconsole.log(JSON.stringify({ team: pass.teamIdentifier, ok: report.ok, codes: report.issues.map((issue) => issue.code), type: response.headers.get('content-type'), link: link.slice(0, 33) }));\n`,
      );
      const result = JSON.parse(
        execFileSync(process.execPath, ['first-pass.mjs'], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
          .trim()
          .split('\n')
          .pop()!,
      );
      expect(result).toEqual({
        team: 'DEVTEAM123',
        ok: true,
        codes: ['development-certificate'],
        type: 'application/vnd.apple.pkpass',
        link: 'https://pay.google.com/gp/v/save/',
      });
    } finally {
      remove();
    }
  }, 120_000);
});
