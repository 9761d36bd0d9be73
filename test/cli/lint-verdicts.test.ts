import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { captureIo, tempDir } from './io.js';

// `passmint lint` gives Wallet's verdicts: a trailing comma and iOS 27 passes are warnings at most.

let dir: string;
let remove: () => void;
beforeAll(() => ({ dir, remove } = tempDir('lint-verdicts')));
afterAll(() => remove());

function fixture(name: string): string {
  copyFileSync(fileURLToPath(new URL(`../fixtures/wallet-verdicts/${name}`, import.meta.url)), join(dir, name));
  return name;
}

async function lint(...args: string[]) {
  const captured = captureIo(dir);
  const code = await run(['lint', ...args], captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

test('a trailing comma is a located warning, exit 0; --strict fails on it', async () => {
  const file = fixture('trailing-comma.json');
  const result = await lint(file);
  expect(result.code).toBe(0);
  expect(result.stdout.split('\n')[0]).toMatch(/^trailing-comma\.json:13:66: warning trailing-comma A comma after the last element \(line 13, column 66\)/);
  expect((await lint('--strict', file)).code).toBe(1);
});

test('iOS 27 and poster passes lint clean', async () => {
  const result = await lint(fixture('poster-generic.json'), fixture('poster-event-ticket.json'));
  expect(result).toEqual({ code: 0, stdout: '2 files checked: no issues\n', stderr: '' });
});

test('every labelled fixture: passmint lint exits 1 exactly on the passes Wallet refuses', async () => {
  const labels = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/wallet-verdicts/manifest.json', import.meta.url)), 'utf8')) as {
    passes: { file: string; wallet: 'opens' | 'refuses' }[];
  };
  expect(labels.passes.length).toBeGreaterThanOrEqual(13);
  const verdicts: string[] = [];
  const expected: string[] = [];
  for (const { file, wallet } of labels.passes) {
    const result = await lint(fixture(file));
    verdicts.push(`${file} ${result.code === 1 ? 'refuses' : result.code === 0 ? 'opens' : `exit ${result.code}`}`);
    expected.push(`${file} ${wallet}`);
  }
  expect(verdicts).toEqual(expected);
});
