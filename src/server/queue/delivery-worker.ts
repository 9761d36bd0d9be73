import { deliver } from '../../webhooks/deliver.js';
import type { DeliveryResult } from '../../webhooks/deliver.js';
import { DEFAULT_TIMEOUT_MS, type FetchLike } from '../../webhooks/post.js';
import { nextRetryDelay } from '../../webhooks/retry.js';
import { signPayload } from '../../webhooks/signature.js';
import { claimOwner } from '../db/claims.js';
import { defaultLeaseMs } from './lease.js';
import { createQueueWorker, retryWhileUnavailable, type Claim, type Worker } from './queue-worker.js';
import type { SqlDatabase } from '../db/sql.js';

export { createLoop, type Worker } from './queue-worker.js';

/**
 * How a process delivers the outbox.
 *
 * @example
 * ```ts
 * const options: DeliveryOptions = { batchSize: 20, pollMs: 500, maxAttempts: 30 };
 * ```
 */
export interface DeliveryOptions {
  /** Most deliveries one worker sends at once; default 16. Each ends on its own: a slow receiver holds one of them, not the others. */
  readonly batchSize?: number | undefined;
  /** How often an idle worker looks for due deliveries, in ms; default 1000. Changes in this process wake it at once. */
  readonly pollMs?: number | undefined;
  /**
   * How long a claim lasts, in ms; default 60 000 (or twice `timeoutMs`
   * when that is longer). It is extended while the delivery is in flight.
   * A process killed while delivering leaves its claims: a process that
   * starts frees those of processes that are gone; otherwise they are taken
   * again when they run out. `createServer` refuses one shorter than
   * `timeoutMs` + 500.
   */
  readonly leaseMs?: number | undefined;
  /** Time limit of one POST, in ms; default 15 000 (`deliver`'s). */
  readonly timeoutMs?: number | undefined;
  /** Deliver to private and loopback addresses too (a receiver on your own network); default false. */
  readonly allowPrivateNetworks?: boolean | undefined;
  /** Give up on a delivery after this many attempts; default never (the seed: "until it succeeds"). */
  readonly maxAttempts?: number | undefined;
  /** Give up on a delivery this long after its first attempt, in ms; default never. */
  readonly maxAgeMs?: number | undefined;
  /** Used instead of the built-in transport (tests, proxies). */
  readonly fetch?: FetchLike | undefined;
  /** Told about each attempt as it ends (logs and metrics); must not throw. */
  readonly onAttempt?: ((attempt: DeliveryAttempt) => void) | undefined;
}

/**
 * One delivery attempt, as {@link DeliveryOptions.onAttempt} hears of it.
 *
 * @example
 * ```ts
 * const attempt: DeliveryAttempt = { deliveryId: 1, webhookId: '…', attempt: 1, outcome: 'received', status: 200, ms: 12 };
 * ```
 */
export interface DeliveryAttempt {
  readonly deliveryId: number;
  readonly webhookId: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly outcome: 'received' | 'retry' | 'gone';
  readonly status: number | null;
  readonly ms: number;
}

interface ClaimedRow {
  id: number;
  attempts: number;
  first_attempt_at: Date | null;
  webhook_id: string;
  body: string;
  url: string;
  secret: string;
}

/** A next delivery claimed while recording another: `after` is the delivery it follows, `lease` that one's claim. */
interface HandedOnRow extends ClaimedRow {
  after: number;
  lease: string;
}

/** Most accepted deliveries one statement records. */
const MAX_RECORDED = 64;

/**
 * Records accepted deliveries (`$1` ids, `$2` start times in ms, `$3`
 * statuses, `$4` durations, `$5` their claims) in one statement: each
 * attempt once, each delivery delivered. With `$6`, it also claims, for each
 * registration whose delivery it recorded, that registration's next pending
 * delivery when it is due and free (under the recorded one's claim, `$7` ms,
 * owner `$8`), and returns those. The rows it changes are locked in id order
 * first, as the lease heartbeat does, so two such statements never wait on
 * each other in a circle.
 */
const RECORD_RECEIVED = `with input as (
     select * from unnest($1::bigint[], $2::numeric[], $3::int[], $4::int[], $5::uuid[]) as x(id, started, status, ms, lease)),
   locked as (
     select d.id from passmint_deliveries d
      where d.id = any($1::bigint[]) and d.status = 'pending'
      order by d.id
        for update),
   attempt as (
     insert into passmint_attempts (delivery_id, attempted_at, outcome, status, error, duration_ms)
     select x.id, to_timestamp(x.started / 1000.0), 'received', x.status, null, x.ms from input x
      where not exists (select 1 from passmint_attempts a where a.delivery_id = x.id and a.attempted_at = to_timestamp(x.started / 1000.0))),
   done as (
     update passmint_deliveries d
        set status = 'delivered', delivered_at = now(), attempts = d.attempts + 1, last_status = x.status, last_error = null,
            locked_until = null, lease = null, claimed_by = null, first_attempt_at = coalesce(d.first_attempt_at, to_timestamp(x.started / 1000.0))
       from input x, locked l
      where d.id = x.id and l.id = x.id
     returning d.id, d.webhook_id, x.lease),
   head as (
     -- Each registration's oldest pending delivery besides those recorded here (which this statement's snapshot still sees as pending).
     select n.id, done.id as after, done.lease
       from done
       join passmint_webhooks w on w.id = done.webhook_id and w.state = 'enabled'
       cross join lateral (
         select p.id, p.next_attempt_at, p.locked_until from passmint_deliveries p
          where p.webhook_id = done.webhook_id and p.status = 'pending' and p.id <> all($1::bigint[])
          order by p.event_seq
          limit 1) n
      where $6::boolean and n.next_attempt_at <= now() and (n.locked_until is null or n.locked_until < now())),
   free as (
     -- Locked and re-checked here: another worker may have taken one since it was read.
     select c.id, head.after, head.lease from passmint_deliveries c join head on head.id = c.id
      where c.status = 'pending' and (c.locked_until is null or c.locked_until < now())
      order by c.id
        for update of c skip locked),
   claimed as (
     update passmint_deliveries d
        set locked_until = now() + $7 * interval '1 millisecond', lease = free.lease, claimed_by = $8
       from free
      where d.id = free.id
     returning d.id, d.attempts, d.first_attempt_at, d.webhook_id, d.event_seq, free.after, free.lease)
 select claimed.id, claimed.attempts, claimed.first_attempt_at, claimed.webhook_id, claimed.after, claimed.lease::text as lease, e.body, w.url, w.secret
   from claimed
   join passmint_events e on e.seq = claimed.event_seq
   join passmint_webhooks w on w.id = claimed.webhook_id`;

interface Accepted {
  readonly row: ClaimedRow;
  readonly lease: string;
  readonly status: number | null;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly follow: boolean;
  readonly stopping: () => boolean;
  readonly resolve: (next: Claim<ClaimedRow> | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/** PostgreSQL's deadlock_detected: the statement was undone as a whole and may run again. */
const isDeadlock = (error: unknown): boolean => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '40P01';

/**
 * Claims due deliveries with `FOR UPDATE SKIP LOCKED` — only the oldest
 * pending delivery of each registration, so a registration receives its
 * events in creation order — leases them for `leaseMs` (extended while in
 * flight), posts each with `deliver`, records the attempt, and schedules
 * the next with `nextRetryDelay` (honouring `Retry-After`). `410 Gone`
 * disables the registration and cancels what was pending for it. A free
 * slot is filled as soon as a delivery ends (see {@link createQueueWorker}).
 *
 * @example
 * ```ts
 * const worker = createDeliveryWorker(db, { allowPrivateNetworks: true });
 * worker.start();
 * ```
 */
export function createDeliveryWorker(
  db: SqlDatabase,
  options: DeliveryOptions = {},
  onError: (error: unknown) => void = () => undefined,
): Worker {
  const batchSize = options.batchSize ?? 16;
  const leaseMs = options.leaseMs ?? defaultLeaseMs(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const owner = claimOwner(db);
  const attemptOptions = {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    allowPrivateNetworks: options.allowPrivateNetworks === true,
  };

  const claim = async (limit: number, lease: string): Promise<ClaimedRow[]> =>
    db.query<ClaimedRow>(
      `with claimed as (
         update passmint_deliveries d
            set locked_until = now() + $2 * interval '1 millisecond', lease = $3, claimed_by = $4
          where d.id in (
            -- Locked and re-checked here: another worker may have taken a candidate since it was read.
            select c.id from passmint_deliveries c
             where c.id in (
               -- The head of each enabled registration's queue (its oldest pending delivery), found by
               -- one index probe per registration, so a backlog of thousands behind a head costs nothing.
               select head.id
                 from passmint_webhooks w
                 cross join lateral (
                   select p.id, p.next_attempt_at, p.locked_until, p.event_seq
                     from passmint_deliveries p
                    where p.webhook_id = w.id and p.status = 'pending'
                    order by p.event_seq
                    limit 1) head
                where w.state = 'enabled'
                  and head.next_attempt_at <= now()
                  and (head.locked_until is null or head.locked_until < now())
                order by head.next_attempt_at, head.event_seq
                -- More candidates than taken: workers polling at the same instant skip each other's.
                limit $1 * 4)
               and c.status = 'pending'
               and (c.locked_until is null or c.locked_until < now())
             order by c.next_attempt_at, c.event_seq
             limit $1
               for update skip locked)
         returning d.id, d.attempts, d.first_attempt_at, d.webhook_id, d.event_seq)
       select claimed.id, claimed.attempts, claimed.first_attempt_at, claimed.webhook_id, e.body, w.url, w.secret
         from claimed
         join passmint_events e on e.seq = claimed.event_seq
         join passmint_webhooks w on w.id = claimed.webhook_id`,
      [limit, leaseMs, lease, owner],
    );

  const attempt = async (row: ClaimedRow): Promise<DeliveryResult> => {
    try {
      const signature = await signPayload(row.body, row.secret);
      const headers = { 'Content-Type': 'application/json', 'X-Service': 'event', 'X-Service-Signature': signature } as const;
      return await deliver(row.url, { body: row.body, headers }, attemptOptions);
    } catch (error) {
      // A URL refused at send time (the network rules changed since it was registered): keep retrying, say why.
      return { ok: false, outcome: 'retry', error: error instanceof Error ? error.message : String(error) };
    }
  };

  // Accepted deliveries waiting to be recorded: one statement in flight, the ones that end meanwhile in the next.
  let accepted: Accepted[] = [];
  let recording = false;

  const recordAccepted = async (batch: readonly Accepted[]): Promise<void> => {
    const follow = batch.some((item) => item.follow && !item.stopping());
    const rows = await retryWhileUnavailable(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.query<HandedOnRow>(RECORD_RECEIVED, [
            batch.map((item) => item.row.id),
            batch.map((item) => String(item.startedAt)),
            batch.map((item) => item.status),
            batch.map((item) => item.durationMs),
            batch.map((item) => item.lease),
            follow,
            leaseMs,
            owner,
          ]);
        } catch (error) {
          // Undone as a whole (nothing recorded, nothing claimed): the same statement again.
          if (!isDeadlock(error) || attempt >= 5) throw error;
        }
      }
    }, batch[0]!.stopping);
    const byAfter = new Map(rows.map((row) => [Number(row.after), row]));
    for (const item of batch) {
      const next = byAfter.get(item.row.id);
      item.resolve(next === undefined ? undefined : { job: { id: next.id, attempts: next.attempts, first_attempt_at: next.first_attempt_at, webhook_id: next.webhook_id, body: next.body, url: next.url, secret: next.secret }, lease: next.lease });
    }
  };

  const writeAccepted = async (): Promise<void> => {
    recording = true;
    try {
      while (accepted.length > 0) {
        const batch = accepted.slice(0, MAX_RECORDED);
        accepted = accepted.slice(batch.length);
        try {
          await recordAccepted(batch);
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      recording = false;
    }
  };

  const record = async (row: ClaimedRow, lease: string, result: DeliveryResult, startedAt: number, follow: boolean, stopping: () => boolean): Promise<Claim<ClaimedRow> | undefined> => {
    const durationMs = Math.max(0, Math.round(Date.now() - startedAt));
    const status = result.status ?? null;
    const error = result.ok ? null : (result.error ?? null);
    const firstAttemptAt = row.first_attempt_at?.getTime() ?? startedAt;
    if (result.outcome === 'received') {
      // The common case: recorded with the others that end meanwhile, in one statement (atomic on its own), which also
      // claims the registration's next delivery for this slot — no claim round between two events of one registration.
      return new Promise((resolve, reject) => {
        accepted.push({ row, lease, status, startedAt, durationMs, follow, stopping, resolve, reject });
        if (!recording) void writeAccepted();
      });
    }
    await retryWhileUnavailable(() => recordOther(row, lease, result, startedAt, status, error, durationMs, firstAttemptAt), stopping);
    return undefined;
  };

  const recordOther = async (
    row: ClaimedRow,
    lease: string,
    result: Exclude<DeliveryResult, { outcome: 'received' }>,
    startedAt: number,
    status: number | null,
    error: string | null,
    durationMs: number,
    firstAttemptAt: number,
  ): Promise<void> => {
    await db.transaction(async (tx) => {
      // Once per attempt, even when this transaction runs again because its commit's answer was lost.
      await tx.query(
        `insert into passmint_attempts (delivery_id, attempted_at, outcome, status, error, duration_ms)
         select $1::bigint, to_timestamp($2 / 1000.0), $3::text, $4::int, $5::text, $6::int
          where not exists (select 1 from passmint_attempts where delivery_id = $1 and attempted_at = to_timestamp($2 / 1000.0))`,
        [row.id, startedAt, result.outcome, status, error, durationMs],
      );
      const common = `attempts = attempts + 1, last_status = $2, last_error = $3, locked_until = null, lease = null, claimed_by = null,
                      first_attempt_at = coalesce(first_attempt_at, to_timestamp($4 / 1000.0))`;
      if (result.outcome === 'gone') {
        await tx.query(`update passmint_deliveries set status = 'failed', ${common} where id = $1 and status = 'pending'`, [
          row.id,
          status,
          error,
          startedAt,
        ]);
        await tx.query(
          `update passmint_webhooks set state = 'disabled', state_reason = 'gone', updated_at = now() where id = $1 and state = 'enabled'`,
          [row.webhook_id],
        );
        await tx.query(`update passmint_deliveries set status = 'cancelled' where webhook_id = $1 and status = 'pending'`, [row.webhook_id]);
        return;
      }
      const delay = nextRetryDelay(row.attempts + 1, {
        retryAfterMs: result.retryAfterMs,
        maxAttempts: options.maxAttempts,
        maxAgeMs: options.maxAgeMs,
        firstAttemptAt,
      });
      // Only the holder of the claim reschedules: a worker whose lease ran out must not move another's schedule.
      await tx.query(
        delay === undefined
          ? `update passmint_deliveries set status = 'failed', ${common} where id = $1 and lease = $5`
          : `update passmint_deliveries set next_attempt_at = now() + $6 * interval '1 millisecond', ${common} where id = $1 and lease = $5`,
        delay === undefined ? [row.id, status, error, startedAt, lease] : [row.id, status, error, startedAt, lease, delay],
      );
    });
  };

  return createQueueWorker<ClaimedRow>({
    capacity: batchSize,
    pollMs: options.pollMs ?? 1000,
    leaseMs,
    claim,
    async run(row, lease, stopping, follow) {
      const startedAt = Date.now();
      const result = await attempt(row);
      options.onAttempt?.({ deliveryId: row.id, webhookId: row.webhook_id, attempt: row.attempts + 1, outcome: result.outcome, status: result.status ?? null, ms: Date.now() - startedAt });
      // The receiver has answered: its answer is recorded even if the database is away for a while.
      return record(row, lease, result, startedAt, follow, stopping);
    },
    async extend(claims) {
      // Locked in id order, as the accepted deliveries' record locks them.
      await db.query(
        `with c as (select * from unnest($1::bigint[], $2::uuid[]) as c(id, lease)),
              locked as (
                select d.id from passmint_deliveries d join c on c.id = d.id and c.lease = d.lease
                 where d.status = 'pending'
                 order by d.id
                   for update of d)
         update passmint_deliveries d set locked_until = now() + $3 * interval '1 millisecond'
           from locked where d.id = locked.id`,
        [claims.map((claim) => claim.job.id), claims.map((claim) => claim.lease), leaseMs],
      );
    },
    async releaseLost(keep) {
      if (owner === null) return;
      await db.query(
        `update passmint_deliveries set locked_until = null, lease = null, claimed_by = null
          where claimed_by = $1 and status = 'pending' and not (lease = any($2::uuid[]))`,
        [owner, keep],
      );
    },
    onError,
  });
}
