// Isolation: a receiver that hangs holds only its own registration's
// deliveries (one per pass, up to the registration's limit), and a device
// APNs is slow to answer holds only its own push; everything else goes on
// meanwhile.
import { afterEach, beforeAll, afterAll, describe, expect, test } from 'vitest';
import type { PushResult } from '../../src/apns/classify.js';
import { createDeliveryWorker } from '../../src/server/queue/delivery-worker.js';
import { addEvents } from '../../src/server/db/outbox.js';
import { createPushWorker } from '../../src/server/queue/push-worker.js';
import type { Worker } from '../../src/server/queue/queue-worker.js';
import { insertWebhook, setWebhookState } from '../../src/server/db/store.js';
import { createEvent } from '../../src/webhooks/event.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { eventually } from './receiver.js';
import { startScriptedReceiver, type ScriptedReceiver } from './scripted-receiver.js';

const N = 20;

for (const engine of ENGINES) {
  describe(`isolation on ${engine.name}`, () => {
    let database: TestDatabase;
    let receiver: ScriptedReceiver | undefined;
    let worker: Worker | undefined;

    beforeAll(async () => {
      database = await engine.open();
    });
    afterEach(async () => {
      await receiver?.close(); // ends the hanging request, so the worker can stop
      await worker?.stop();
      receiver = undefined;
      worker = undefined;
    });
    afterAll(async () => {
      await database?.dispose();
    });

    test('a receiver that hangs delays only its own registration: the other gets all its events meanwhile', async () => {
      receiver = await startScriptedReceiver((path) => (path === '/hang' ? 'hang' : 0));
      for (const path of ['/hang', '/fast']) {
        const hook = await insertWebhook(database.db, `${receiver.url}${path}`, 'whsec_isolation_test');
        await setWebhookState(database.db, hook.id, 'enabled', null);
      }
      // Ten passes, two events each (created, then updated), the passes interleaved.
      const events = Array.from({ length: N }, (_, index) =>
        createEvent(index < N / 2 ? 'pass.created' : 'pass.updated', { serialNumber: `I-${index % (N / 2)}`, passTypeIdentifier: 'pass.com.example.i' }),
      );
      await database.db.transaction((tx) => addEvents(tx, events));

      // The hanging POST would hold for 60 s; a worker that waited for it would deliver one event to /fast in that time.
      worker = createDeliveryWorker(database.db, { allowPrivateNetworks: true, pollMs: 20, timeoutMs: 60_000 });
      worker.start();
      await eventually(() => (receiver!.arrived.get('/fast') ?? []).length === N, 20_000, 'every event at /fast');

      const fast = receiver.arrived.get('/fast')!;
      expect([...fast].sort()).toEqual(events.map((event) => event.id).sort());
      // Each pass's update after its creation.
      for (let pass = 0; pass < N / 2; pass++) expect(fast.indexOf(events[pass]!.id)).toBeLessThan(fast.indexOf(events[pass + N / 2]!.id));
      // /hang holds the first event of each pass, all unanswered (ten: under the limit of 16 at once), and has been
      // sent nothing after any of them (order per pass).
      await eventually(() => receiver!.hanging() === N / 2, 10_000, 'a hanging request per pass');
      expect([...receiver.arrived.get('/hang')!].sort()).toEqual(
        events
          .slice(0, N / 2)
          .map((event) => event.id)
          .sort(),
      );
    }, 30_000);

    test('a device APNs is slow to answer delays only its own push: the others are sent meanwhile', async () => {
      await database.db.query(
        `insert into passmint_pushes (push_token, topic, status, next_attempt_at) values ('slow', 'pass.com.example.i', 'pending', now() - interval '1 minute')`,
      );
      await database.db.query(
        `insert into passmint_pushes (push_token, topic, status) select 'fast-' || n, 'pass.com.example.i', 'pending' from generate_series(1, ${N}) n`,
      );
      const answerSlow: ((result: PushResult) => void)[] = [];
      const pushed: string[] = [];
      worker = createPushWorker(
        database.db,
        {
          push: async (token) => {
            pushed.push(token);
            return token === 'slow' ? new Promise<PushResult>((resolve) => answerSlow.push(resolve)) : { outcome: 'sent', status: 200 };
          },
        },
        { pollMs: 20, batchSize: 4 },
      );
      worker.start();
      const sent = async (): Promise<number> =>
        (await database.db.query<{ n: number }>(`select count(*)::int as n from passmint_pushes where status = 'sent' and push_token like 'fast-%'`))[0]!.n;
      await eventually(async () => (await sent()) === N, 20_000, 'every fast push sent');

      expect(pushed.filter((token) => token === 'slow')).toEqual(['slow']);
      expect(await database.db.query(`select status from passmint_pushes where push_token = 'slow'`)).toEqual([{ status: 'pending' }]);
      answerSlow[0]!({ outcome: 'sent', status: 200 });
      await eventually(async () => (await database.db.query(`select 1 from passmint_pushes where push_token = 'slow' and status = 'sent'`)).length === 1);
    }, 30_000);
  });
}
