// `passmint serve keys` and the service's environment variables, end to end: the CLI bundled and spawned.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleCli, startServe } from './child.js';
import { createPostgresDatabase } from './databases.js';

function runCli(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const get = (url: string, key: string): Promise<Response> => fetch(url, { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'test-req-1' } });

describe('passmint serve keys', () => {
  let cli: { script: string; remove: () => void };
  let dir: string;
  const running: { child: { kill(signal: NodeJS.Signals): boolean; exitCode: number | null } }[] = [];

  beforeAll(async () => {
    cli = await bundleCli();
    dir = mkdtempSync(join(tmpdir(), 'passmint-keys-'));
  });

  afterAll(() => {
    // A test that failed half-way leaves no service holding a folder.
    for (const served of running) if (served.child.exitCode === null) served.child.kill('SIGKILL');
    cli?.remove();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test('on a PGlite folder: refused while the service runs (saying to stop it), then create, list and revoke; the new key works after a restart configured from PASSMINT_* variables', async () => {
    const data = join(dir, 'data');
    const first = await startServe(cli.script, ['--data', data]);
    running.push(first);
    const firstKey = first.apiKey!;
    const busy = await runCli(cli.script, ['serve', 'keys', 'list', '--data', data]);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`is in use by process ${first.child.pid} (a running passmint serve). Stop it first`);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const listed = await runCli(cli.script, ['serve', 'keys', 'list', '--json'], { PASSMINT_DATA: data });
    expect(listed.code).toBe(0);
    const [only] = JSON.parse(listed.stdout).items;
    expect(only).toMatchObject({ name: 'first key', scopes: ['admin'], prefix: firstKey.slice(0, 11) });
    expect(listed.stdout).not.toContain(firstKey);

    const created = await runCli(cli.script, ['serve', 'keys', 'create', '--name', 'rescue', '--scopes', 'admin,read', '--data', data]);
    expect(created.code).toBe(0);
    const rescue = /Key \(shown once; only its hash is stored\): (pm_\S+)/.exec(created.stdout)?.[1];
    expect(rescue).toMatch(/^pm_[A-Za-z0-9_-]{43}$/);
    expect(created.stdout).toMatch(/^Created API key [0-9a-f-]{36} "rescue" \(admin, read\)\.\n/);

    const revoked = await runCli(cli.script, ['serve', 'keys', 'revoke', only.id, '--data', data]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`Revoked API key ${only.id} "first key".\n`);
    const table = await runCli(cli.script, ['serve', 'keys', 'list', '--data', data]);
    expect(table.stdout).toMatch(/^ID +PREFIX +SCOPES +CREATED +LAST USED +NAME\n[0-9a-f-]{36} +pm_\S{8} +admin,read +\S+ +never +rescue\n$/);

    // Every option from the environment: the folder, the port, the retention.
    const again = await startServe(cli.script, [], { PASSMINT_DATA: data, PASSMINT_RETENTION_DAYS: '7', PASSMINT_METRICS_TOKEN: 'scrape-token-123' });
    running.push(again);
    expect(again.output()).toContain(`(PGlite in ${data})`);
    expect(again.apiKey).toBeUndefined();
    expect((await get(`${again.url}/v1/keys`, rescue!)).status).toBe(200);
    expect((await get(`${again.url}/v1/keys`, firstKey)).status).toBe(401);
    expect((await get(`${again.url}/metrics`, 'scrape-token-123')).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    // One JSON line per request: the route template, never the key or the token.
    const lines = again
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(lines.filter((line) => line.type === 'request').map(({ method, route, status, requestId }) => ({ method, route, status, requestId }))).toEqual([
      { method: 'GET', route: '/v1/keys', status: 200, requestId: 'test-req-1' },
      { method: 'GET', route: '/v1/keys', status: 401, requestId: 'test-req-1' },
      { method: 'GET', route: '/metrics', status: 200, requestId: 'test-req-1' },
    ]);
    expect(again.output()).not.toContain(rescue!);
    expect(again.output()).not.toContain('scrape-token-123');
  }, 120_000);

  test('on PostgreSQL (DATABASE_URL) while the service runs: a created key works within a second, a revoked one stops', async () => {
    const { url, drop } = await createPostgresDatabase();
    try {
      const served = await startServe(cli.script, [], { DATABASE_URL: url });
      try {
        const created = await runCli(cli.script, ['serve', 'keys', 'create', '--name', 'ci', '--scopes', 'read', '--json'], { DATABASE_URL: url });
        expect(created.code).toBe(0);
        const { key, id, scopes } = JSON.parse(created.stdout);
        expect(scopes).toEqual(['read']);
        await expect.poll(async () => (await get(`${served.url}/v1/passes`, key)).status, { timeout: 5000 }).toBe(200);
        expect((await get(`${served.url}/v1/keys`, key)).status).toBe(403);
        expect((await runCli(cli.script, ['serve', 'keys', 'revoke', id], { PASSMINT_DATABASE_URL: url })).code).toBe(0);
        await expect.poll(async () => (await get(`${served.url}/v1/passes`, key)).status, { timeout: 5000 }).toBe(401);
      } finally {
        served.child.kill('SIGTERM');
        await served.exited;
      }
    } finally {
      await drop();
    }
  }, 60_000);

  test('mistakes: an unknown scope or action is a usage error (exit 2); a missing folder or an unknown id is exit 1, changing nothing', async () => {
    const scope = await runCli(cli.script, ['serve', 'keys', 'create', '--name', 'x', '--scopes', 'root', '--data', dir]);
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain('"root" is not a scope');
    // The usage error names this command and its own help, not `passmint serve`'s.
    expect(scope.stderr).toMatch(/^passmint serve keys: /);
    expect(scope.stderr).toContain('Run `passmint serve keys --help` for usage.');
    expect(scope.stderr).not.toContain('passmint serve:');
    const action = await runCli(cli.script, ['serve', 'keys', 'rotate']);
    expect(action.code).toBe(2);
    expect(action.stderr).toContain('keys has create, list and revoke, not "rotate"');
    expect(action.stderr).toContain('Run `passmint serve keys --help` for usage.');
    const option = await runCli(cli.script, ['serve', 'keys', 'list', '--bogus']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^passmint serve keys: .*--bogus/);
    const missing = await runCli(cli.script, ['serve', 'keys', 'list', '--data', join(dir, 'nowhere')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('there is no data folder at');
    mkdirSync(join(dir, 'fresh'));
    const unknown = await runCli(cli.script, ['serve', 'keys', 'revoke', '00000000-0000-4000-8000-000000000000', '--data', join(dir, 'fresh')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no active API key "00000000-0000-4000-8000-000000000000"');
    const boolean = await runCli(cli.script, ['serve', '--help'], {});
    expect(boolean.stdout).toContain('PASSMINT_CERT');
    expect(boolean.stdout).toContain('PASSMINT_RETENTION_DAYS');
    const wrongFlag = await runCli(cli.script, ['serve', '--port', '0'], { PASSMINT_ALLOW_PRIVATE_WEBHOOKS: 'maybe' });
    expect(wrongFlag.code).toBe(2);
    expect(wrongFlag.stderr).toContain('PASSMINT_ALLOW_PRIVATE_WEBHOOKS is 1 or 0');
  }, 60_000);

  test('without the pg package, DATABASE_URL says to install pg, not that the server cannot be reached', async () => {
    // The same CLI where `pg` cannot be found: outside any node_modules.
    const bare = mkdtempSync(join(tmpdir(), 'passmint-no-pg-'));
    try {
      cpSync(dirname(cli.script), bare, { recursive: true });
      const script = join(bare, basename(cli.script));
      const env = { DATABASE_URL: 'postgres://passmint:secret-pw@127.0.0.1:5432/passmint' };
      for (const args of [
        ['serve', 'keys', 'list'],
        ['serve', '--port', '0'],
      ]) {
        const run = await runCli(script, args, env);
        expect(run.code).toBe(1);
        expect(run.stderr).toBe(
          `passmint ${args[1] === 'keys' ? 'serve keys' : 'serve'}: PostgreSQL (DATABASE_URL or --database-url) needs the package "pg", which is not installed: ` +
            'run npm install pg (or leave DATABASE_URL unset to use a PGlite data folder)\n',
        );
      }
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  }, 60_000);
});
