import { describe, expect, test } from 'vitest';
import { createEventBatch } from '../../src/server/db/event-batch.js';
import type { SqlQueryable } from '../../src/server/db/sql.js';
import { createEvent } from '../../src/webhooks/event.js';

/**
 * A database that records each statement's event ids, failing the first `failures` with a lost connection;
 * each statement queues `deliveries` deliveries.
 */
function recordingDb(failures = 0, deliveries = 1): SqlQueryable & { readonly rounds: string[][] } {
  const rounds: string[][] = [];
  let failed = 0;
  return {
    rounds,
    async query<TRow>(_text: string, params: readonly unknown[] = []): Promise<TRow[]> {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (failed < failures) {
        failed++;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      }
      rounds.push([...(params[0] as string[])]);
      return [{ deliveries } as TRow];
    },
    async exec() {},
  };
}

const downloaded = (serialNumber: string) => createEvent('pass.downloaded', { serialNumber, passTypeIdentifier: 'pass.com.example' });

describe('createEventBatch', () => {
  test('events added while a round is written go together in the next statement, in order', async () => {
    const db = recordingDb();
    let written = 0;
    const batch = createEventBatch(db, { onWritten: () => written++, onError: (error) => expect.fail(String(error)) });
    const events = Array.from({ length: 10 }, (_, index) => downloaded(`S-${index}`));
    for (const event of events) batch.add(event);
    expect(batch.pending).toBe(9);
    await batch.flush();
    expect(db.rounds).toEqual([[events[0]!.id], events.slice(1).map((event) => event.id)]);
    expect([written, batch.pending]).toEqual([2, 0]);
  });

  test('a round that queued no delivery (no registration enabled) wakes no worker', async () => {
    const db = recordingDb(0, 0);
    let written = 0;
    const batch = createEventBatch(db, { onWritten: () => written++, onError: (error) => expect.fail(String(error)) });
    batch.add(downloaded('S-1'));
    await batch.flush();
    expect([db.rounds.length, written]).toEqual([1, 0]);
  });

  test('a round lost with the connection is written again once the database answers', async () => {
    const db = recordingDb(1);
    const batch = createEventBatch(db, { onWritten: () => undefined, onError: (error) => expect.fail(String(error)) });
    const event = downloaded('S-1');
    batch.add(event);
    await batch.flush();
    expect(db.rounds).toEqual([[event.id]]);
  });

  test('past maxPending the oldest waiting events are dropped, and a round holds at most maxBatch', async () => {
    const db = recordingDb();
    const batch = createEventBatch(db, { onWritten: () => undefined, onError: (error) => expect.fail(String(error)), maxBatch: 2, maxPending: 3 });
    const events = Array.from({ length: 6 }, (_, index) => downloaded(`S-${index}`));
    for (const event of events) batch.add(event);
    await batch.flush();
    // The first went at once; of the five that waited, the three newest stayed.
    expect(db.rounds).toEqual([[events[0]!.id], [events[3]!.id, events[4]!.id], [events[5]!.id]]);
  });
});
