// The outbox and its workers, below the API, on both engines.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createEvent } from '../../src/webhooks/event.js';
import { createDeliveryWorker } from '../../src/server/queue/delivery-worker.js';
import { migrate } from '../../src/server/db/schema.js';
import { addEvents } from '../../src/server/db/outbox.js';
import { insertWebhook, listDeliveries, setWebhookState } from '../../src/server/db/store.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const passEvent = (serialNumber: string) => createEvent('pass.created', { serialNumber, passTypeIdentifier: 'pass.com.example.o' });

for (const engine of ENGINES) {
  describe(`outbox on ${engine.name}`, () => {
    let database: TestDatabase;
    let receiver: Receiver;
    const stops: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      database = await engine.open();
      receiver = await startReceiver();
    });
    afterEach(async () => {
      await Promise.all(stops.splice(0).map((stop) => stop()));
      await database.db.exec('truncate passmint_webhooks, passmint_events cascade');
      receiver.received.length = 0;
    });
    afterAll(async () => {
      await receiver?.close();
      await database?.dispose();
    });

    const enabledWebhook = async (path: string) => {
      const hook = await insertWebhook(database.db, `${receiver.url}${path}`, 'whsec_test');
      await setWebhookState(database.db, hook.id, 'enabled', null);
      receiver.secrets.set(path, ['whsec_test']);
      return hook;
    };

    test('migrations run once: a second run applies nothing', async () => {
      expect(await migrate(database.db)).toBe(0);
    });

    test('a change that rolls back leaves no event and no delivery', async () => {
      await enabledWebhook('/rollback');
      await expect(
        database.db.transaction(async (tx) => {
          await addEvents(tx, [passEvent('R-1')]);
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await database.db.query('select 1 from passmint_events')).toEqual([]);
      expect(await database.db.query('select 1 from passmint_deliveries')).toEqual([]);
    });

    test('an event gets one delivery per enabled registration; pending and disabled ones get none', async () => {
      const enabled = await enabledWebhook('/enabled');
      await insertWebhook(database.db, `${receiver.url}/pending`, 'whsec_test');
      const disabled = await enabledWebhook('/disabled');
      await setWebhookState(database.db, disabled.id, 'disabled', 'test');
      await database.db.transaction((tx) => addEvents(tx, [passEvent('E-1')]));
      const rows = await database.db.query<{ webhook_id: string }>('select webhook_id from passmint_deliveries');
      expect(rows.map((row) => row.webhook_id)).toEqual([enabled.id]);
    });

    test("a pass's events reach a registration in creation order, even when a later one is due first", async () => {
      await enabledWebhook('/ordered');
      const events = [passEvent('O'), passEvent('O'), passEvent('O')];
      await database.db.transaction((tx) => addEvents(tx, events));
      // The first event is not due for an hour: the later ones wait behind it.
      await database.db.query(
        `update passmint_deliveries set next_attempt_at = now() + interval '1 hour' where event_seq = (select min(seq) from passmint_events)`,
      );
      const worker = createDeliveryWorker(database.db, { allowPrivateNetworks: true });
      expect(await worker.runOnce()).toBe(0);
      // Its retry comes due (the later two wait behind it, parked: left so).
      await database.db.query(`update passmint_deliveries set next_attempt_at = now() where next_attempt_at < 'infinity'`);
      while ((await worker.runOnce()) > 0);
      expect(receiver.received.map((entry) => entry.event.id)).toEqual(events.map((event) => event.id));
      expect(receiver.received.every((entry) => entry.signatureValid)).toBe(true);
    });

    test('a registration that is down holds back only its own events; the others get theirs', async () => {
      const down = await enabledWebhook('/down');
      await enabledWebhook('/up');
      receiver.statusFor.set('/down', 503);
      await database.db.transaction((tx) =>
        addEvents(
          tx,
          Array.from({ length: 5 }, (_, index) => passEvent(`B-${index}`)),
        ),
      );
      const worker = createDeliveryWorker(database.db, { allowPrivateNetworks: true });
      while ((await worker.runOnce()) > 0);
      expect(
        receiver.received
          .filter((entry) => entry.path === '/up')
          .map((entry) => entry.event.data['serialNumber'])
          .sort(),
      ).toEqual(['B-0', 'B-1', 'B-2', 'B-3', 'B-4']);
      const held = await listDeliveries(database.db, { webhookId: down.id }, { direction: 'before', cursor: undefined, limit: 10 });
      // Five passes, one event each: each failed once and waits its retry.
      expect(held.map((delivery) => [delivery.status, delivery.attempts])).toEqual([
        ['pending', 1],
        ['pending', 1],
        ['pending', 1],
        ['pending', 1],
        ['pending', 1],
      ]);
      receiver.statusFor.delete('/down');
    });

    test('a claim whose worker died is taken again once its lease runs out, with the same event id', async () => {
      await enabledWebhook('/lease');
      await database.db.transaction((tx) => addEvents(tx, [passEvent('L-1')]));
      // A worker claims and "dies": the claim is made, nothing is sent or recorded.
      await database.db.query(`update passmint_deliveries set locked_until = now() + interval '1 hour', lease = $1`, [crypto.randomUUID()]);
      const worker = createDeliveryWorker(database.db, { allowPrivateNetworks: true, leaseMs: 5000 });
      // While the lease holds, no one else takes the delivery.
      expect(await worker.runOnce()).toBe(0);
      // The lease runs out (moved into the past rather than waited for: no race with a busy machine's clock).
      await database.db.query(`update passmint_deliveries set locked_until = now() - interval '1 millisecond'`);
      expect(await worker.runOnce()).toBe(1);
      expect(receiver.received.map((entry) => entry.event.data['serialNumber'])).toEqual(['L-1']);
      const [delivery] = await listDeliveries(
        database.db,
        { webhookId: (await database.db.query<{ id: string }>('select id from passmint_webhooks'))[0]!.id },
        { direction: 'before', cursor: undefined, limit: 10 },
      );
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 1 });
    });

    test('workers running side by side never claim one delivery twice', async () => {
      const paths = ['/w1', '/w2', '/w3', '/w4'];
      for (const path of paths) await enabledWebhook(path);
      await database.db.transaction((tx) =>
        addEvents(
          tx,
          Array.from({ length: 15 }, (_, index) => passEvent(`C-${index}`)),
        ),
      );
      const workers = Array.from({ length: 3 }, () => createDeliveryWorker(database.db, { allowPrivateNetworks: true, pollMs: 10, batchSize: 4 }));
      for (const worker of workers) {
        worker.start();
        stops.push(() => worker.stop());
      }
      await eventually(() => receiver.received.length >= 60, 20_000, 'sixty deliveries');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received.length).toBe(60);
      for (const path of paths) {
        const serials = receiver.received.filter((entry) => entry.path === path).map((entry) => entry.event.data['serialNumber']);
        // Fifteen passes: in any order between them, each once.
        expect([...serials].sort()).toEqual(Array.from({ length: 15 }, (_, index) => `C-${index}`).sort());
      }
    });

    test('a network failure is an attempt with an error and a retry in about 5 s; maxAttempts gives up', async () => {
      const hook = await insertWebhook(database.db, 'http://127.0.0.1:1/closed', 'whsec_test');
      await setWebhookState(database.db, hook.id, 'enabled', null);
      await database.db.transaction((tx) => addEvents(tx, [passEvent('N-1')]));
      const worker = createDeliveryWorker(database.db, { allowPrivateNetworks: true, maxAttempts: 2 });
      expect(await worker.runOnce()).toBe(1);
      let [delivery] = await listDeliveries(database.db, { webhookId: hook.id }, { direction: 'before', cursor: undefined, limit: 1 });
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null, lastError: 'No HTTP response: the connection failed' });
      const wait = delivery!.nextAttemptAt!.getTime() - Date.now();
      expect(wait).toBeGreaterThan(3000);
      expect(wait).toBeLessThan(6000);
      await database.db.query('update passmint_deliveries set next_attempt_at = now()');
      expect(await worker.runOnce()).toBe(1);
      [delivery] = await listDeliveries(database.db, { webhookId: hook.id }, { direction: 'before', cursor: undefined, limit: 1 });
      expect(delivery).toMatchObject({ status: 'failed', attempts: 2 });
      expect(delivery!.history.map((attempt) => attempt.outcome)).toEqual(['retry', 'retry']);
    });
  });
}
