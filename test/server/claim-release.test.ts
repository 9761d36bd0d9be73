// After a crash, no stall for the whole lease: `passmint serve` is killed
// (SIGKILL) while a receiver is mid-answer, and started again at once. The
// new process frees the dead one's claims when it starts — on a PGlite
// folder all of them (the folder's lock proves no other process runs), on
// PostgreSQL those of processes with no connection left — so the next event
// reaches the receiver within seconds, not after the 60 s lease.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claimOwner, releaseOrphanedClaims } from '../../src/server/queue/queue.js';
import { openPostgres } from '../../src/server/db/postgres.js';
import { migrate } from '../../src/server/db/schema.js';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createPostgresDatabase } from './databases.js';
import { eventually } from './receiver.js';
import { startScriptedReceiver, type ScriptedReceiver } from './scripted-receiver.js';

let cli: { script: string; remove: () => void };
let folder: string;
let database: { url: string; drop: () => Promise<void> };
const running: ServeProcess[] = [];

beforeAll(async () => {
  [cli, database] = await Promise.all([bundleCli(), createPostgresDatabase()]);
  folder = mkdtempSync(join(tmpdir(), 'passmint-release-'));
});

afterAll(async () => {
  for (const service of running) service.child.kill('SIGKILL');
  await Promise.all(running.map((service) => service.exited));
  await database?.drop();
  cli?.remove();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

const engines = [
  { name: 'a PGlite data folder', args: () => ['--data', join(folder, 'data')] },
  { name: 'PostgreSQL', args: () => ['--database-url', database.url] },
];

describe.each(engines)('on $name', ({ name, args }) => {
  test('killed mid-delivery and started again at once: the next event arrives within seconds, not after the lease', async () => {
    // The first POST hangs (the receiver is mid-answer when the process dies); later ones are answered at once.
    let posts = 0;
    const receiver: ScriptedReceiver = await startScriptedReceiver(() => (++posts === 1 ? 'hang' : 0));
    try {
      // The default lease (60 s) and time limit (15 s): without the release, the next delivery would wait ~60 s.
      const start = async (): Promise<ServeProcess> => {
        const service = await startServe(cli.script, [...args(), '--allow-private-webhooks', '--poll-ms', '50']);
        running.push(service);
        return service;
      };
      let service = await start();
      const headers = { authorization: `Bearer ${service.apiKey!}`, 'content-type': 'application/json' };
      const call = async (method: string, path: string, body: unknown): Promise<any> =>
        (await fetch(`${service.url}${path}`, { method, headers, body: JSON.stringify(body) })).json();
      expect((await call('POST', '/v1/webhooks', { url: `${receiver.url}/slow` })).state).toBe('enabled');
      const template = await call('POST', '/v1/templates', {
        name: 'T',
        formatVersion: 1,
        passType: 'pass.com.example.r',
        description: { generic: { primaryFields: [{ key: 'k', value: '${v}' }] } },
        placeholder: ['v'],
      });
      const first = await call('POST', `/v1/templates/${template.id}/passes`, { serialNumber: 'R-1', values: { v: '1' } });
      expect(first.serialNumber).toBe('R-1');
      await eventually(() => receiver.hanging() === 1, 10_000, 'the first delivery in flight');

      service.child.kill('SIGKILL');
      await service.exited;
      const restartedAt = Date.now();
      service = await start();
      await call('POST', `/v1/templates/${template.id}/passes`, { serialNumber: 'R-2', values: { v: '2' } });
      // The first event again (it was never answered), then the new one — in creation order.
      // Well under the 60 s lease even on a loaded machine (the time taken is printed below).
      await eventually(() => (receiver.arrived.get('/slow') ?? []).length >= 3, 40_000, 'the next event after the restart');
      const seconds = (Date.now() - restartedAt) / 1000;
      process.stdout.write(`[claim-release] ${name}: the next event reached the receiver ${seconds.toFixed(1)} s after the restart began (lease: 60 s)\n`);
      const ids = receiver.arrived.get('/slow')!;
      expect(ids[1]).toBe(ids[0]); // the unanswered event, sent again
      expect(ids[2]).not.toBe(ids[0]);
      service.child.kill('SIGTERM');
      await service.exited;
    } finally {
      await receiver.close();
    }
  }, 90_000);
});

test('on PostgreSQL, only the claims of processes with no connection left are freed', async () => {
  const { url, drop } = await createPostgresDatabase();
  const alive = await openPostgres({ connectionString: url });
  const gone = await openPostgres({ connectionString: url });
  const starter = await openPostgres({ connectionString: url });
  try {
    await migrate(starter);
    await starter.query(
      `insert into passmint_pushes (push_token, topic, status, locked_until, lease, claimed_by)
      values ('a', 't', 'pending', now() + interval '1 minute', gen_random_uuid(), $1),
             ('g', 't', 'pending', now() + interval '1 minute', gen_random_uuid(), $2)`,
      [claimOwner(alive), claimOwner(gone)],
    );
    expect(await releaseOrphanedClaims(starter, 'gone')).toBe(0); // both still connected
    await gone.close();
    await eventually(async () => (await releaseOrphanedClaims(starter, 'gone')) === 1, 5000, "the closed one's claim freed");
    const rows = await starter.query<{ push_token: string; held: boolean }>(
      'select push_token, locked_until is not null as held from passmint_pushes order by push_token',
    );
    expect(rows).toEqual([
      { push_token: 'a', held: true },
      { push_token: 'g', held: false },
    ]);
  } finally {
    await Promise.all([alive.close(), starter.close()]);
    await drop();
  }
});
