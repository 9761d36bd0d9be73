// The data folder and what is in it belong to the service's user alone:
// `passmint serve` started under umask 000 on a fresh folder leaves every
// folder 0700 and every file 0600, while it runs and after it stops.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bundleCli } from './child.js';

let cli: { script: string; remove: () => void };
let folder: string;

beforeAll(async () => {
  cli = await bundleCli();
  folder = mkdtempSync(join(tmpdir(), 'passmint-perm-'));
});

afterAll(() => {
  cli?.remove();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

/** Every path under `root` (itself included) whose mode is not 0700 (folders) or 0600 (files), with its mode. */
function notPrivate(root: string): string[] {
  const wrong: string[] = [];
  const visit = (path: string): void => {
    const stat = statSync(path);
    const mode = stat.mode & 0o777;
    if (stat.isDirectory()) {
      if (mode !== 0o700) wrong.push(`${path} ${mode.toString(8)}`);
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (mode !== 0o600) wrong.push(`${path} ${mode.toString(8)}`);
  };
  visit(root);
  return wrong;
}

test('under umask 000, a fresh data folder and everything in it are 0700 / 0600', async () => {
  const data = join(folder, 'data');
  const child = spawn('sh', ['-c', `umask 000; exec "$0" "$1" serve --port 0 --data "$2"`, process.execPath, cli.script, data], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${output}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (found !== undefined && /Passes are/.test(output)) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
  const key = /API key[^:]*: (\S+)/.exec(output)![1]!;
  // Writes while it runs (a template, a pass): new rows, perhaps new files.
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const template = await (
    await fetch(`${url}/v1/templates`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'T',
        formatVersion: 1,
        passType: 'pass.com.example.p',
        description: { generic: { primaryFields: [{ key: 'k', value: '${v}' }] } },
        placeholder: ['v'],
      }),
    })
  ).json();
  expect(
    (await fetch(`${url}/v1/templates/${template.id}/passes`, { method: 'POST', headers, body: JSON.stringify({ serialNumber: 'P-1', values: { v: '1' } }) }))
      .status,
  ).toBe(201);
  expect(readdirSync(data)).toContain('passmint.pid');
  expect(notPrivate(data)).toEqual([]);

  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(readdirSync(data).length).toBeGreaterThan(3);
  expect(notPrivate(data)).toEqual([]);
}, 60_000);
