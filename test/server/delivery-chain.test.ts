// A registration's next delivery is claimed by the statement that records the
// one before it (no claim round between two events of one registration) —
// the next event of the same pass when no other is free — and a stopping
// worker hands nothing on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createDeliveryWorker } from '../../src/server/queue/delivery-worker.js';
import { addEvents } from '../../src/server/db/outbox.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { insertWebhook, setWebhookState } from '../../src/server/db/store.js';
import { createEvent } from '../../src/webhooks/event.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { eventually } from './receiver.js';

const passEvent = (serialNumber: string) => createEvent('pass.created', { serialNumber, passTypeIdentifier: 'pass.com.example.chain' });

/** The database with every statement counted by its first words. */
function counting(db: SqlDatabase): { db: SqlDatabase; count: (start: string) => number } {
  const seen: string[] = [];
  const note = (text: string) => seen.push(text.replace(/\s+/g, ' ').trim());
  return {
    db: {
      engine: db.engine,
      instanceId: db.instanceId,
      query: (text, params) => (note(text), db.query(text, params)),
      exec: (text) => db.exec(text),
      transaction: (work) => db.transaction(work),
      close: () => db.close(),
    },
    count: (start) => seen.filter((text) => text.startsWith(start)).length,
  };
}

for (const engine of ENGINES) {
  describe(`deliveries handed on on ${engine.name}`, () => {
    let database: TestDatabase;
    let server: Server;
    let url: string;
    let delayMs = 0;
    const received: string[] = [];
    const stops: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      database = await engine.open();
      server = createServer((incoming, outgoing) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
          setTimeout(() => {
            received.push(event.id);
            outgoing.writeHead(200, { 'content-length': 0 });
            outgoing.end();
          }, delayMs);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      await Promise.all(stops.splice(0).map((stop) => stop()));
      await database.db.exec('truncate passmint_webhooks, passmint_events cascade');
      received.length = 0;
    });
    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      await database?.dispose();
    });

    /** `count` events of `passes` passes (H-0, H-1, … in turn) to one registration; their ids in creation order. */
    const backlog = async (count: number, passes: number): Promise<string[]> => {
      const hook = await insertWebhook(database.db, `${url}/hook`, 'whsec_test');
      await setWebhookState(database.db, hook.id, 'enabled', null);
      const ids: string[] = [];
      for (let index = 0; index < count; index++) {
        const event = passEvent(`H-${index % passes}`);
        await addEvents(database.db, [event]);
        ids.push(event.id);
      }
      return ids;
    };

    test("one pass's backlog is delivered in order, each next event claimed while the one before is recorded", async () => {
      delayMs = 0;
      const ids = await backlog(12, 1);
      const { db, count } = counting(database.db);
      // Polling once a minute: only the start and the wake of a freed slot look for work.
      const worker = createDeliveryWorker(db, { allowPrivateNetworks: true, pollMs: 60_000 });
      worker.start();
      stops.push(() => worker.stop());
      await eventually(() => received.length >= ids.length, 10_000, 'twelve deliveries');
      await eventually(
        async () => (await database.db.query<{ n: number }>(`select count(*)::int as n from passmint_deliveries where status = 'delivered'`))[0]!.n === 12,
      );
      expect(received).toEqual(ids);
      const rows = await database.db.query<{ attempts: number; lease: string | null }>('select attempts, lease from passmint_deliveries');
      expect(rows.every((row) => row.attempts === 1 && row.lease === null)).toBe(true);
      // Without handing on: a claim round per delivery (12 or more).
      expect(count('with claimed as (')).toBeLessThanOrEqual(3);
    });

    test('a backlog of many passes: each freed slot takes the next free delivery, up to the registration’s limit', async () => {
      delayMs = 0;
      const ids = await backlog(40, 20);
      const { db, count } = counting(database.db);
      const worker = createDeliveryWorker(db, { allowPrivateNetworks: true, pollMs: 60_000, webhookConcurrency: 4 });
      worker.start();
      stops.push(() => worker.stop());
      await eventually(() => received.length >= ids.length, 20_000, 'forty deliveries');
      expect([...received].sort()).toEqual([...ids].sort());
      // Each pass's two events in order.
      for (let pass = 0; pass < 20; pass++) expect(received.indexOf(ids[pass]!)).toBeLessThan(received.indexOf(ids[pass + 20]!));
      // Slots handed on as they free: far fewer claim rounds than deliveries.
      expect(count('with claimed as (')).toBeLessThanOrEqual(10);
    });

    test('a worker that stops hands nothing on: what it did not deliver stays pending and unclaimed', async () => {
      delayMs = 30;
      await backlog(20, 20);
      const worker = createDeliveryWorker(database.db, { allowPrivateNetworks: true, pollMs: 60_000, webhookConcurrency: 2 });
      worker.start();
      await eventually(() => received.length >= 2, 10_000, 'two deliveries');
      await worker.stop();
      const delivered = received.length;
      const rows = await database.db.query<{ status: string; lease: string | null }>('select status, lease from passmint_deliveries order by event_seq');
      expect(rows.filter((row) => row.status === 'delivered').length).toBe(delivered);
      expect(delivered).toBeLessThan(20);
      expect(rows.filter((row) => row.status === 'pending').every((row) => row.lease === null)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received.length).toBe(delivered);
    });
  });
}
