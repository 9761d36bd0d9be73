// Deliveries keep up (issue 28): one registration gets several deliveries at
// once (up to its limit, 16 by default), each pass's events still in creation
// order; a receiver that fails or hangs holds back only its own deliveries,
// and with order kept per pass, a failing delivery holds back only the later
// events of its own pass. How fast is in `npm run bench` (the deliveries row:
// events a second to one receiver answering in 10 ms), not timed here: these
// tests wait for conditions and count what the receiver saw.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { webhookBacklogs } from '../../src/server/db/figures.js';
import { addEvents } from '../../src/server/db/outbox.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { insertWebhook, listDeliveries, replayEvent, setWebhookState } from '../../src/server/db/store.js';
import { createDeliveryWorker } from '../../src/server/queue/delivery-worker.js';
import type { Worker } from '../../src/server/queue/queue-worker.js';
import { createEvent } from '../../src/webhooks/event.js';
import type { WebhookEvent } from '../../src/webhooks/event-types.js';
import { createMetrics } from '../../src/server/metrics.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { eventually } from './receiver.js';

const TYPE = 'pass.com.example.throughput';

/** A receiver that answers each path after a delay (or with a status), and counts the requests open at once. */
interface CountingReceiver {
  readonly url: string;
  /** Events per path, in arrival order. */
  readonly arrived: Map<string, { id: string; serial: string | undefined }[]>;
  /** The most requests open at once, per path. */
  readonly mostAtOnce: Map<string, number>;
  /** Status per path (default 200). */
  readonly statusFor: Map<string, number>;
  close(): Promise<void>;
}

async function startCountingReceiver(delayMs: number): Promise<CountingReceiver> {
  const arrived = new Map<string, { id: string; serial: string | undefined }[]>();
  const open = new Map<string, number>();
  const mostAtOnce = new Map<string, number>();
  const statusFor = new Map<string, number>();
  const server: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    open.set(path, (open.get(path) ?? 0) + 1);
    mostAtOnce.set(path, Math.max(mostAtOnce.get(path) ?? 0, open.get(path)!));
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; data: { serialNumber?: string } };
      const status = statusFor.get(path) ?? 200;
      if (status === 200) arrived.set(path, [...(arrived.get(path) ?? []), { id: event.id, serial: event.data.serialNumber }]);
      setTimeout(() => {
        // Counted closed before the answer leaves: the sender may start its next request as soon as it has it.
        open.set(path, open.get(path)! - 1);
        outgoing.writeHead(status, { 'content-length': 0 }).end();
      }, delayMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    mostAtOnce,
    statusFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `passes` passes × `each` events, made round-robin (pass 0's first, pass 1's first, …), so passes interleave in the outbox. */
function interleaved(passes: number, each: number, prefix: string): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (let round = 0; round < each; round++) {
    for (let pass = 0; pass < passes; pass++) {
      const data = { serialNumber: `${prefix}-${pass}`, passTypeIdentifier: TYPE };
      events.push(round === 0 ? createEvent('pass.created', data) : createEvent('pass.updated', data));
    }
  }
  return events;
}

/** Each pass's events in creation order, by serial number. */
function byPass(events: readonly WebhookEvent[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const event of events) {
    const serial = (event.data as { serialNumber: string }).serialNumber;
    out.set(serial, [...(out.get(serial) ?? []), event.id]);
  }
  return out;
}

/** What arrived at a path, each pass's event ids in arrival order. */
function arrivedByPass(receiver: CountingReceiver, path: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { id, serial } of receiver.arrived.get(path) ?? []) out.set(serial!, [...(out.get(serial!) ?? []), id]);
  return out;
}

const pending = async (db: SqlDatabase): Promise<number> =>
  (await db.query<{ n: number }>(`select count(*)::int as n from passmint_deliveries where status = 'pending'`))[0]!.n;

for (const engine of ENGINES) {
  describe(`deliveries keep up on ${engine.name}`, () => {
    let database: TestDatabase;
    let receiver: CountingReceiver;
    const workers: Worker[] = [];

    beforeAll(async () => {
      database = await engine.open();
      receiver = await startCountingReceiver(10);
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
      await database.db.exec('truncate passmint_webhooks, passmint_events cascade');
      receiver.arrived.clear();
      receiver.mostAtOnce.clear();
      receiver.statusFor.clear();
    });
    afterAll(async () => {
      await receiver?.close();
      await database?.dispose();
    });

    const enabledWebhook = async (path: string): Promise<string> => {
      const hook = await insertWebhook(database.db, `${receiver.url}${path}`, 'whsec_throughput_test');
      await setWebhookState(database.db, hook.id, 'enabled', null);
      return hook.id;
    };
    const start = (options: Parameters<typeof createDeliveryWorker>[1] = {}): Worker => {
      const worker = createDeliveryWorker(database.db, { allowPrivateNetworks: true, pollMs: 20, ...options });
      worker.start();
      workers.push(worker);
      return worker;
    };

    test('one registration: several deliveries in flight at once (16 at most), each pass in order, each event once', async () => {
      await enabledWebhook('/one');
      const events = interleaved(40, 6, 'T');
      await database.db.transaction((tx) => addEvents(tx, events));
      start();
      await eventually(() => (receiver.arrived.get('/one') ?? []).length >= events.length, 60_000, 'every event at /one');
      await eventually(async () => (await pending(database.db)) === 0, 10_000, 'every delivery recorded');

      const arrived = receiver.arrived.get('/one')!;
      expect(arrived.length).toBe(events.length);
      expect(new Set(arrived.map((entry) => entry.id)).size).toBe(events.length); // no event twice
      expect(arrivedByPass(receiver, '/one')).toEqual(byPass(events)); // each pass's events in creation order
      const most = receiver.mostAtOnce.get('/one')!;
      expect(most).toBeGreaterThanOrEqual(2);
      expect(most).toBeLessThanOrEqual(16);
      const rows = await database.db.query<{ status: string; attempts: number; n: number }>(
        'select status, attempts, count(*)::int as n from passmint_deliveries group by status, attempts',
      );
      expect(rows).toEqual([{ status: 'delivered', attempts: 1, n: events.length }]);
    }, 90_000);

    test('webhookConcurrency bounds how many one registration gets at once, over two workers on one database', async () => {
      await enabledWebhook('/three');
      const events = interleaved(12, 4, 'C');
      await database.db.transaction((tx) => addEvents(tx, events));
      start({ webhookConcurrency: 3 });
      start({ webhookConcurrency: 3 });
      await eventually(() => (receiver.arrived.get('/three') ?? []).length >= events.length, 60_000, 'every event at /three');
      expect(receiver.mostAtOnce.get('/three')).toBeGreaterThanOrEqual(2);
      expect(receiver.mostAtOnce.get('/three')).toBeLessThanOrEqual(3);
      expect(arrivedByPass(receiver, '/three')).toEqual(byPass(events));
    }, 90_000);

    test('webhookConcurrency 1: one at a time, the registration’s events in creation order', async () => {
      await enabledWebhook('/single');
      const events = interleaved(5, 3, 'S');
      await database.db.transaction((tx) => addEvents(tx, events));
      start({ webhookConcurrency: 1 });
      await eventually(() => (receiver.arrived.get('/single') ?? []).length >= events.length, 30_000, 'every event at /single');
      expect(receiver.mostAtOnce.get('/single')).toBe(1);
      expect(receiver.arrived.get('/single')!.map((entry) => entry.id)).toEqual(events.map((event) => event.id));
    }, 60_000);

    test('a failing delivery holds back only the later events of its own pass; the other passes, and a second receiver, get theirs', async () => {
      const failing = await enabledWebhook('/failing');
      await enabledWebhook('/second');
      const events = interleaved(10, 5, 'F');
      await database.db.transaction((tx) => addEvents(tx, events));
      // /failing fails for one pass only (F-3): the receiver refuses it, answering 500.
      const worker = createDeliveryWorker(database.db, {
        allowPrivateNetworks: true,
        pollMs: 20,
        fetch: async (url, init) => {
          const body = JSON.parse(String(init?.body)) as { data: { serialNumber: string } };
          if (String(url).endsWith('/failing') && body.data.serialNumber === 'F-3') return new Response(null, { status: 500 });
          return fetch(url, init);
        },
      });
      worker.start();
      workers.push(worker);
      const expected = byPass(events);
      await eventually(() => (receiver.arrived.get('/second') ?? []).length >= events.length, 60_000, 'every event at /second');
      await eventually(() => (receiver.arrived.get('/failing') ?? []).length >= events.length - 5, 60_000, 'every other pass at /failing');

      expect(arrivedByPass(receiver, '/second')).toEqual(expected);
      const atFailing = arrivedByPass(receiver, '/failing');
      expect(atFailing.has('F-3')).toBe(false);
      expect(new Map([...expected].filter(([serial]) => serial !== 'F-3'))).toEqual(atFailing);
      // F-3's first event failed once and waits for its retry; its four later ones wait behind it, never tried.
      const held = await listDeliveries(database.db, { webhookId: failing }, { direction: 'after', cursor: undefined, limit: 100 });
      const f3 = held.filter((delivery) => expected.get('F-3')!.includes(delivery.eventId));
      expect(f3.map((delivery) => [delivery.status, delivery.attempts, delivery.nextAttemptAt === null])).toEqual([
        ['pending', 1, false],
        ['pending', 0, true],
        ['pending', 0, true],
        ['pending', 0, true],
        ['pending', 0, true],
      ]);
    }, 90_000);

    test('a pass whose first event failed for good (given up) goes on with its next', async () => {
      const hook = await enabledWebhook('/gives-up');
      receiver.statusFor.set('/gives-up', 503);
      const events = interleaved(2, 3, 'G');
      await database.db.transaction((tx) => addEvents(tx, events));
      const worker = createDeliveryWorker(database.db, { allowPrivateNetworks: true, maxAttempts: 1 });
      // One attempt each for the two passes' first events (503, given up), then their next ones are due.
      expect(await worker.runOnce()).toBe(2);
      receiver.statusFor.delete('/gives-up');
      while ((await worker.runOnce()) > 0);
      const rows = await listDeliveries(database.db, { webhookId: hook }, { direction: 'after', cursor: undefined, limit: 100 });
      expect(rows.map((row) => row.status)).toEqual(['failed', 'failed', 'delivered', 'delivered', 'delivered', 'delivered']);
      expect(arrivedByPass(receiver, '/gives-up')).toEqual(new Map([...byPass(events)].map(([serial, ids]) => [serial, ids.slice(1)])));
    });

    test('events about no pass go one at a time per registration, in creation order among themselves', async () => {
      await enabledWebhook('/jobs');
      const jobs = Array.from({ length: 6 }, (_, index) =>
        createEvent('job.completed', {
          jobId: `job-${index}`,
          kind: 'import',
          state: 'succeeded',
          templateId: 1,
          rows: 1,
          created: 1,
          updated: 0,
          unchanged: 0,
          failed: 0,
        }),
      );
      await database.db.transaction((tx) => addEvents(tx, jobs));
      start();
      await eventually(() => (receiver.arrived.get('/jobs') ?? []).length >= jobs.length, 30_000, 'every job event');
      expect(receiver.arrived.get('/jobs')!.map((entry) => entry.id)).toEqual(jobs.map((event) => event.id));
      expect(receiver.mostAtOnce.get('/jobs')).toBe(1);
    }, 60_000);

    test('an event whose text PostgreSQL cannot read as json (NUL, lone surrogates) is queued and delivered in its pass’s order', async () => {
      await enabledWebhook('/odd');
      const data = { serialNumber: 'X-\u0000\ud800', passTypeIdentifier: TYPE };
      const events = [
        createEvent('custom.note', { ...data, note: 'a\u0000b\ud800c\udfff' }),
        createEvent('pass.updated', data),
        createEvent('custom.note', { ...data, note: '\\u0000 \ud83d\ude00' }),
      ];
      await database.db.transaction((tx) => addEvents(tx, events));
      const keys = await database.db.query<{ k: string; parked: boolean }>(
        `select pass_key::text as k, next_attempt_at = 'infinity' as parked from passmint_deliveries order by event_seq`,
      );
      expect(new Set(keys.map((row) => row.k)).size).toBe(1); // one pass
      expect(keys.map((row) => row.parked)).toEqual([false, true, true]);
      start();
      await eventually(() => (receiver.arrived.get('/odd') ?? []).length >= events.length, 30_000, 'the three events');
      expect(receiver.arrived.get('/odd')!.map((entry) => entry.id)).toEqual(events.map((event) => event.id));
    }, 60_000);

    test('/metrics: each registration with a backlog, its size and the age of its oldest pending and due delivery', async () => {
      const behind = await enabledWebhook('/behind');
      const idle = await enabledWebhook('/idle');
      const events = interleaved(5, 3, 'M');
      await database.db.transaction((tx) => addEvents(tx, events));
      await database.db.query(`update passmint_deliveries set status = 'delivered' where webhook_id = $1`, [idle]);
      const backlogs = await webhookBacklogs(database.db);
      // Only the registration with pending deliveries is listed: all 15, five of them due (each pass's first).
      expect(backlogs.map((backlog) => [backlog.webhookId, backlog.pending])).toEqual([[behind, 15]]);
      expect(backlogs[0]!.oldestPending).toBeGreaterThanOrEqual(0);
      expect(backlogs[0]!.oldestDue).toBeGreaterThanOrEqual(0);
      const text = await createMetrics(async () => ({
        queue: { pending: 15, due: 5, oldest: 0 },
        deliveries: [],
        pushes: [],
        google: { owed: 0, retrying: 0 },
        webhooks: backlogs,
      })).render();
      expect(text).toContain(`passmint_webhook_backlog{webhook="${behind}"} 15\n`);
      expect(text).toMatch(new RegExp(`^passmint_webhook_oldest_pending_seconds\\{webhook="${behind}"\\} \\d`, 'm'));
      expect(text).toMatch(new RegExp(`^passmint_webhook_oldest_due_seconds\\{webhook="${behind}"\\} \\d`, 'm'));
      expect(text).not.toContain(idle);
    });

    test('a replayed event waits behind its pass’s pending delivery, and one already pending keeps its place', async () => {
      const hook = await enabledWebhook('/replay');
      const [first, second] = interleaved(1, 2, 'R');
      await database.db.transaction((tx) => addEvents(tx, [first!]));
      const worker = createDeliveryWorker(database.db, { allowPrivateNetworks: true });
      expect(await worker.runOnce()).toBe(1);
      receiver.statusFor.set('/replay', 503);
      await database.db.transaction((tx) => addEvents(tx, [second!]));
      expect(await worker.runOnce()).toBe(1); // the second fails: pending, waiting for its retry
      const seqOf = async (id: string): Promise<number> =>
        Number((await database.db.query<{ seq: number }>('select seq from passmint_events where id = $1', [id]))[0]!.seq);
      // The first again while the second is pending: behind it.
      expect(await replayEvent(database.db, await seqOf(first!.id), hook)).toBe(1);
      const rows = async () =>
        (await listDeliveries(database.db, { webhookId: hook }, { direction: 'after', cursor: undefined, limit: 10 })).map((row) => [
          row.eventId,
          row.status,
          row.nextAttemptAt === null ? 'parked' : 'scheduled',
        ]);
      expect(await rows()).toEqual([
        [first!.id, 'pending', 'parked'],
        [second!.id, 'pending', 'scheduled'],
      ]);
      // The second replayed too (still pending): due now, in its place.
      expect(await replayEvent(database.db, await seqOf(second!.id), hook)).toBe(1);
      receiver.statusFor.delete('/replay');
      while ((await worker.runOnce()) > 0);
      expect(receiver.arrived.get('/replay')!.map((entry) => entry.id)).toEqual([first!.id, second!.id, first!.id]);
    });
  });
}
