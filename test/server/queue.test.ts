// The queue's statements, written once over every kind (db/queue.ts), shown
// on the pushes' table: claim, extend, complete, fail, release — on both engines.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PUSHES, type ClaimedPush } from '../../src/server/db/pushes.js';
import { claim, claimStatement, complete, extend, fail, releaseLost, releaseOrphans } from '../../src/server/db/queue.js';
import { DELIVERIES } from '../../src/server/db/deliveries.js';
import { GOOGLE_SYNCS } from '../../src/server/db/google-sync.js';
import { QUEUE_KINDS } from '../../src/server/queue/queue.js';
import { ENGINES, type TestDatabase } from './databases.js';

const OWNER = 'test-instance/00000001';

test('one claim statement per kind: a kind adds only its own condition, order and payload', () => {
  for (const kind of QUEUE_KINDS) {
    const text = claimStatement(kind);
    expect(text).toContain(`update ${kind.table} q set locked_until = now() + $2 * interval '1 millisecond', lease = $3, claimed_by = $4`);
    expect(text).toContain('for update skip locked');
    expect(text).toContain('(c.locked_until is null or c.locked_until < now())');
  }
  // Deliveries: only the head of each registration's queue, with the event and receiver joined.
  expect(claimStatement(DELIVERIES)).toMatch(/^with claimed as \(/);
  expect(claimStatement(DELIVERIES)).toContain('cross join lateral');
  expect(claimStatement(GOOGLE_SYNCS)).toContain('c.wanted > c.done');
  expect(claimStatement(PUSHES)).toMatch(/^update passmint_pushes q/);
});

for (const engine of ENGINES) {
  describe(`the queue's statements on ${engine.name}`, () => {
    let database: TestDatabase;

    beforeAll(async () => {
      database = await engine.open();
    });
    afterEach(async () => {
      await database.db.exec('truncate passmint_pushes');
    });
    afterAll(async () => {
      await database?.dispose();
    });

    const queued = async (count: number): Promise<void> => {
      for (let index = 0; index < count; index++) {
        await database.db.query(`insert into passmint_pushes (push_token, topic, status) values ($1, 'pass.com.example', 'pending')`, [`token-${index}`]);
      }
    };
    const row = async (id: number) =>
      (
        await database.db.query<{
          status: string;
          attempts: number;
          held: boolean;
          lease: string | null;
          claimed_by: string | null;
          wait_ms: number;
          last_error: string | null;
        }>(
          `select status, attempts, locked_until > now() as held, lease::text as lease, claimed_by, last_error,
                  (extract(epoch from next_attempt_at - now()) * 1000)::int as wait_ms
             from passmint_pushes where id = $1`,
          [id],
        )
      )[0]!;

    test('a claim takes at most `limit` due rows, oldest due first, and a second claim skips the held ones', async () => {
      await queued(3);
      const lease = crypto.randomUUID();
      const first = await claim<ClaimedPush>(database.db, PUSHES, 2, 60_000, lease, OWNER);
      expect(first.map((job) => job.push_token).sort()).toEqual(['token-0', 'token-1']);
      expect(await row(first[0]!.id)).toMatchObject({ held: true, lease, claimed_by: OWNER });
      const second = await claim<ClaimedPush>(database.db, PUSHES, 5, 60_000, crypto.randomUUID(), OWNER);
      expect(second.map((job) => job.push_token)).toEqual(['token-2']);
      expect(await claim(database.db, PUSHES, 5, 60_000, crypto.randomUUID(), OWNER)).toEqual([]);
    });

    test('a row whose lease ran out is claimed again; extend keeps a running one held', async () => {
      await queued(2);
      const lease = crypto.randomUUID();
      const jobs = await claim<ClaimedPush>(database.db, PUSHES, 2, 60_000, lease, OWNER);
      await database.db.query("update passmint_pushes set locked_until = now() - interval '1 second'");
      // Only the first is extended (the second's claim is not the one named): the second is free again.
      await extend(
        database.db,
        PUSHES,
        [
          { id: jobs[0]!.id, lease },
          { id: jobs[1]!.id, lease: crypto.randomUUID() },
        ],
        60_000,
      );
      const again = await claim<ClaimedPush>(database.db, PUSHES, 5, 60_000, crypto.randomUUID(), OWNER);
      expect(again.map((job) => job.id)).toEqual([jobs[1]!.id]);
    });

    test("complete with a lease: only that claim's holder records; without one, any row still held", async () => {
      await queued(1);
      const lease = crypto.randomUUID();
      const [job] = await claim<ClaimedPush>(database.db, PUSHES, 1, 60_000, lease, OWNER);
      const sent = { set: 'status = $2, attempts = attempts + 1, last_error = $3', params: ['sent', null] };
      expect(await complete(database.db, PUSHES, job!.id, sent, crypto.randomUUID())).toBe(0);
      expect(await row(job!.id)).toMatchObject({ status: 'pending', held: true });
      expect(await complete(database.db, PUSHES, job!.id, sent, lease)).toBe(1);
      expect(await row(job!.id)).toMatchObject({ status: 'sent', attempts: 1, held: null, lease: null, claimed_by: null });
      // Ended: not `status = 'pending'` any more, so a second record (a retried transaction) changes nothing.
      expect(await complete(database.db, PUSHES, job!.id, sent)).toBe(0);
    });

    test('fail frees the claim and makes the row due again after the delay; a stale lease changes nothing', async () => {
      await queued(1);
      const lease = crypto.randomUUID();
      const [job] = await claim<ClaimedPush>(database.db, PUSHES, 1, 60_000, lease, OWNER);
      const changes = { set: 'attempts = attempts + 1, last_error = $2', params: ['timeout'] };
      expect(await fail(database.db, PUSHES, job!.id, changes, 60_000, crypto.randomUUID())).toBe(0);
      expect(await fail(database.db, PUSHES, job!.id, changes, 60_000, lease)).toBe(1);
      const after = await row(job!.id);
      expect(after).toMatchObject({ status: 'pending', attempts: 1, last_error: 'timeout', held: null, lease: null });
      expect(after.wait_ms).toBeGreaterThan(50_000);
      expect(await claim(database.db, PUSHES, 5, 60_000, crypto.randomUUID(), OWNER)).toEqual([]);
    });

    test("releaseLost frees the owner's claims except those in flight; releaseOrphans (every) frees all", async () => {
      await queued(3);
      const kept = crypto.randomUUID();
      const lost = crypto.randomUUID();
      const [a] = await claim<ClaimedPush>(database.db, PUSHES, 1, 60_000, kept, OWNER);
      const [b] = await claim<ClaimedPush>(database.db, PUSHES, 1, 60_000, lost, OWNER);
      const [c] = await claim<ClaimedPush>(database.db, PUSHES, 1, 60_000, crypto.randomUUID(), 'another/00000002');
      await releaseLost(database.db, PUSHES, OWNER, [kept]);
      expect([(await row(a!.id)).held, (await row(b!.id)).held, (await row(c!.id)).held]).toEqual([true, null, true]);
      expect(await releaseOrphans(database.db, [PUSHES], 'every', 0)).toBe(2);
      expect(await claim(database.db, PUSHES, 5, 60_000, crypto.randomUUID(), OWNER)).toHaveLength(3);
    });
  });
}
