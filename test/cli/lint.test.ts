import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { buildPass } from '../../src/index.js';
import { eventTicket, eventValues, issuer } from '../fixtures.js';
import { captureIo, tempDir } from './io.js';

let dir: string;
let remove: () => void;
beforeAll(() => ({ dir, remove } = tempDir('lint')));
afterAll(() => remove());

function write(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

async function lint(...args: string[]) {
  const captured = captureIo(dir);
  const code = await run(['lint', ...args], captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

describe('passmint lint', () => {
  test('a clean template and a clean pass: exit 0', async () => {
    const pass = buildPass(eventTicket, eventValues, issuer);
    const result = await lint(write('ok-template.json', pretty(eventTicket)), write('ok-pass.json', pretty(pass)));
    expect(result).toEqual({ code: 0, stdout: '2 files checked: no issues\n', stderr: '' });
  });

  test('an undeclared placeholder: file:line:column at the "$" inside the string, exit 1', async () => {
    const template = { ...eventTicket, description: { ...eventTicket.description, logoText: 'Hi \\n ${eventNmae}' } };
    const text = pretty(template).replace('Hi \\\\n', 'Hi \\n');
    const file = write('typo.json', text);
    const result = await lint(file);
    expect(result.code).toBe(1);
    const line = text.split('\n').findIndex((each) => each.includes('"logoText"')) + 1;
    const column = (text.split('\n')[line - 1] as string).indexOf('${eventNmae}') + 1;
    expect(result.stdout).toContain(`typo.json:${line}:${column}: error undeclared-placeholder `);
    expect(result.stdout).toContain('did you mean "eventName"');
    expect(result.stdout).toMatch(/1 file checked: 1 error, 0 warnings\n$/);
  });

  test('warnings alone pass; --strict makes them fail', async () => {
    const file = write('unused.json', pretty({ ...eventTicket, placeholder: [...eventTicket.placeholder, 'extra'] }));
    const relaxed = await lint(file);
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).toMatch(/^unused\.json:\d+:\d+: warning unused-placeholder /);
    const strict = await lint(file, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('(--strict: warnings fail)');
  });

  test("a pass is checked with Apple's rules, located at the member", async () => {
    const pass = { ...buildPass(eventTicket, eventValues, issuer), backgroundColor: 'blue' };
    const text = pretty(pass);
    const result = await lint(write('pass.json', text));
    expect(result.code).toBe(1);
    const line = text.split('\n').findIndex((each) => each.includes('"backgroundColor"')) + 1;
    expect(result.stdout).toContain(`pass.json:${line}:3: error invalid-color `);
  });

  test('text that is not JSON: invalid-json at the offending character; a duplicate key is a warning', async () => {
    const broken = await lint(write('broken.json', '{\n  "id": 1,\n  "name": oops\n}\n'));
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^broken\.json:3:11: error invalid-json /);
    const twice = await lint(write('twice.json', pretty(eventTicket).replace('"name": "Event ticket",', '"name": "Event ticket",\n  "name": "Again",')));
    expect(twice.code).toBe(0);
    expect(twice.stdout).toMatch(/^twice\.json:4:3: warning duplicate-key /);
  });

  test('--json lists the issues with file, line and column', async () => {
    const file = write('json.json', pretty({ ...eventTicket, passType: 'com.example' }));
    const result = await lint(file, '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    expect(report.files).toEqual([{ file: 'json.json', kind: 'template', ok: false }]);
    expect(report.issues[0]).toMatchObject({ file: 'json.json', line: 5, column: 3, severity: 'error', code: 'invalid-template', path: '/passType' });
  });

  test('usage errors exit 2 and say what to do', async () => {
    expect(await lint()).toMatchObject({ code: 2, stderr: expect.stringContaining('name at least one template') });
    expect(await lint('missing.json')).toMatchObject({ code: 2, stderr: expect.stringContaining('Cannot read the file missing.json: no such file') });
    const unknown = await lint('x.json', '--stritc');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--stritc'");
    expect(unknown.stderr).toContain('Run `passmint lint --help` for usage.');
    expect((await lint('--help')).stdout).toContain('Usage: passmint lint');
  });
});

describe('passmint (no command, unknown command, --version)', () => {
  test('no command prints the overview on stderr with exit 2; --help on stdout with 0', async () => {
    const none = captureIo(dir);
    expect(await run([], none.io)).toBe(2);
    expect(none.stderr()).toContain('Usage: passmint <command>');
    const help = captureIo(dir);
    expect(await run(['--help'], help.io)).toBe(0);
    expect(help.stdout()).toMatch(/lint +Check templates/);
  });

  test('a mistyped command gets a suggestion', async () => {
    const typo = captureIo(dir);
    expect(await run(['lnit'], typo.io)).toBe(2);
    expect(typo.stderr()).toContain('did you mean "lint"?');
  });

  test('--version prints the package version', async () => {
    const version = captureIo(dir);
    expect(await run(['--version'], version.io)).toBe(0);
    expect(version.stdout()).toMatch(/^\d+\.\d+\.\d+/);
  });

  test('a pass.json with 200,000 unknown keys: every one reported, located, no stack overflow', async () => {
    const pass = buildPass(eventTicket, eventValues, issuer) as unknown as Record<string, unknown>;
    const keys = Object.fromEntries(Array.from({ length: 200_000 }, (_, index) => [`extra${index}`, 1]));
    const result = await lint('--json', write('many-keys.json', JSON.stringify({ ...pass, ...keys })));
    expect(result.code).toBe(0);
    const unknown = (JSON.parse(result.stdout) as { issues: { code: string }[] }).issues.filter((issue) => issue.code === 'unknown-key');
    expect(unknown.length).toBe(200_000);
  });
});
