import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPglite } from '../../src/server/db/pglite.js';
import { bundleCli, startServe } from './child.js';
import { makePki, PASS_TYPE_IDENTIFIER } from '../pkpass/pki.js';

describe('passmint serve', () => {
  let cli: { script: string; remove: () => void };
  let dir: string;

  beforeAll(async () => {
    cli = await bundleCli();
    dir = mkdtempSync(join(tmpdir(), 'passmint-serve-'));
  });

  afterAll(() => {
    cli?.remove();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test('starts on a PGlite data folder, prints where it listens and the first API key once, keeps the data across restarts, stops on SIGTERM', async () => {
    const data = join(dir, 'data');
    const first = await startServe(cli.script, ['--data', data]);
    expect(first.output()).toContain(`(PGlite in ${data})`);
    expect(first.apiKey).toMatch(/^pm_[A-Za-z0-9_-]{43}$/);
    const headers = { authorization: `Bearer ${first.apiKey!}`, 'content-type': 'application/json' };
    const created = await fetch(`${first.url}/v1/templates`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Card',
        formatVersion: 1,
        passType: 'pass.com.example.card',
        description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
        placeholder: ['n'],
      }),
    });
    expect(created.status).toBe(201);
    // A second process on the same folder would corrupt it: refused while the first runs.
    const second = await startServe(cli.script, ['--data', data]).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(second).toMatch(/ended \(1\)/);
    expect(second).toContain(`in use by process ${first.child.pid}`);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('passmint serve: stopping');

    const again = await startServe(cli.script, ['--data', data]);
    // The key was made once; the template is still there and the old key still works.
    expect(again.apiKey).toBeUndefined();
    const read = await fetch(`${again.url}/v1/templates/${(await created.json()).id}`, { headers });
    expect(read.status).toBe(200);
    expect((await read.json()).name).toBe('Card');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });

  test('a data folder left locked by a process that is gone (SIGKILL) is taken over', async () => {
    const data = join(dir, 'stale');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    await openPglite({ dataDir: data }).then((db) => db.close());
    writeFileSync(join(data, 'passmint.pid'), String(gone));
    const db = await openPglite({ dataDir: data });
    expect(await db.query<{ n: number }>('select 1 as n')).toEqual([{ n: 1 }]);
    await expect(openPglite({ dataDir: data })).rejects.toThrow(`in use by process ${process.pid}`);
    await db.close();
  });

  test('a wrong option is a usage error (exit 2); an unreachable database fails with exit 1 and no password in the message', async () => {
    const usage = startServe(cli.script, ['--port', 'x']);
    await expect(usage).rejects.toThrow(/--port is a whole number[\s\S]*ended \(2\)|ended \(2\)/);
    const unreachable = startServe(cli.script, ['--database-url', 'postgres://user:hunter2@127.0.0.1:1/db']);
    const error = await unreachable.then(
      () => undefined,
      (caught: Error) => caught.message,
    );
    expect(error).toMatch(/ended \(1\)/);
    expect(error).toContain('cannot open the database (postgres://user:***@127.0.0.1:1/db)');
    expect(error).not.toContain('hunter2');
    expect(error).toContain('Check that the PostgreSQL server is running');
  });

  test('with --cert, --key, --wwdr and --apns: says whom it signs as and that pushes are on', async () => {
    const pki = await makePki();
    writeFileSync(join(dir, 'cert.pem'), pki.certPem);
    writeFileSync(join(dir, 'key.pem'), pki.keyPem);
    writeFileSync(join(dir, 'wwdr.pem'), pki.wwdrPem);
    const signing = ['--cert', join(dir, 'cert.pem'), '--key', join(dir, 'key.pem'), '--wwdr', join(dir, 'wwdr.pem')];
    const served = await startServe(cli.script, ['--data', join(dir, 'apns'), ...signing, '--apns', 'development']);
    served.child.kill('SIGTERM');
    expect(served.output()).toContain(`Signing as ${PASS_TYPE_IDENTIFIER} (team A93A5CM278); pushing updates through APNs (development).\n`);
    expect(await served.exited).toBe(0);
  });

  test('a port already taken: exit 1, naming --port', async () => {
    // Whoever holds the port, the refusal is the same: a plain listener here spares starting a first service.
    const holder = createNetServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = String((holder.address() as AddressInfo).port);
    const second = await startServe(cli.script, ['--data', join(dir, 'port-b'), '--port', port]).then(
      () => 'started',
      (caught: Error) => caught.message,
    );
    await new Promise((resolve) => holder.close(resolve));
    expect(second).toMatch(/ended \(1\)/);
    expect(second).toContain(`cannot listen on 127.0.0.1:${port}`);
    expect(second).toContain('choose another with --port');
  });
});
