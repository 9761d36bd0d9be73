import { deliver } from '../webhooks/deliver.js';
import type { DeliveryResult } from '../webhooks/deliver.js';
import type { FetchLike } from '../webhooks/post.js';
import { nextRetryDelay } from '../webhooks/retry.js';
import { signPayload } from '../webhooks/signature.js';
import type { SqlDatabase } from './sql.js';

/**
 * How a process delivers the outbox.
 *
 * @example
 * ```ts
 * const options: DeliveryOptions = { batchSize: 20, pollMs: 500, maxAttempts: 30 };
 * ```
 */
export interface DeliveryOptions {
  /** Most deliveries one worker claims and sends at once; default 16. */
  readonly batchSize?: number | undefined;
  /** How often an idle worker looks for due deliveries, in ms; default 1000. Changes in this process wake it at once. */
  readonly pollMs?: number | undefined;
  /**
   * How long a claim lasts, in ms; default 60 000. A process killed while
   * delivering leaves its claims, which other workers (or it, restarted)
   * take again once they expire. Keep it above `timeoutMs`.
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

/**
 * A loop that delivers due outbox entries; every process runs one and any
 * number share a database.
 *
 * @example
 * ```ts
 * const server = await createServer({ databaseUrl, workers: false });
 * while ((await server.deliveries.runOnce()) > 0); // deliver what is due, then stop
 * ```
 */
export interface Worker {
  /** Starts the loop (idempotent). */
  start(): void;
  /** Looks for work now instead of at the next poll. */
  wake(): void;
  /** Claims and processes one batch; resolves to how many it processed. */
  runOnce(): Promise<number>;
  /** Stops claiming, and waits for the batch in flight. */
  stop(): Promise<void>;
}

/**
 * Claims due deliveries with `FOR UPDATE SKIP LOCKED` — only the oldest
 * pending delivery of each registration, so a registration receives its
 * events in creation order — leases them for `leaseMs`, posts each with
 * `deliver`, records the attempt, and schedules the next with
 * `nextRetryDelay` (honouring `Retry-After`). `410 Gone` disables the
 * registration and cancels what was pending for it.
 */
export function createDeliveryWorker(
  db: SqlDatabase,
  options: DeliveryOptions = {},
  onError: (error: unknown) => void = () => undefined,
): Worker {
  const batchSize = options.batchSize ?? 16;
  const leaseMs = options.leaseMs ?? 60_000;
  const attemptOptions = {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    allowPrivateNetworks: options.allowPrivateNetworks === true,
  };

  const claim = async (lease: string): Promise<ClaimedRow[]> =>
    db.query<ClaimedRow>(
      `with claimed as (
         update passmint_deliveries d
            set locked_until = now() + $2 * interval '1 millisecond', lease = $3
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
      [batchSize, leaseMs, lease],
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

  const record = async (row: ClaimedRow, lease: string, result: DeliveryResult, startedAt: number): Promise<void> => {
    const durationMs = Math.max(0, Math.round(Date.now() - startedAt));
    const status = result.status ?? null;
    const error = result.ok ? null : (result.error ?? null);
    const firstAttemptAt = row.first_attempt_at?.getTime() ?? startedAt;
    await db.transaction(async (tx) => {
      await tx.query(
        `insert into passmint_attempts (delivery_id, attempted_at, outcome, status, error, duration_ms)
         values ($1, to_timestamp($2 / 1000.0), $3, $4, $5, $6)`,
        [row.id, startedAt, result.outcome, status, error, durationMs],
      );
      const common = `attempts = attempts + 1, last_status = $2, last_error = $3, locked_until = null, lease = null,
                      first_attempt_at = coalesce(first_attempt_at, to_timestamp($4 / 1000.0))`;
      if (result.outcome === 'received') {
        await tx.query(
          `update passmint_deliveries set status = 'delivered', delivered_at = now(), ${common} where id = $1 and status = 'pending'`,
          [row.id, status, error, startedAt],
        );
        return;
      }
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

  return createLoop(async () => {
    const lease = crypto.randomUUID();
    const rows = await claim(lease);
    await Promise.all(
      rows.map(async (row) => {
        const startedAt = Date.now();
        const result = await attempt(row);
        await record(row, lease, result, startedAt);
      }),
    );
    return rows.length;
  }, options.pollMs ?? 1000, onError);
}

/**
 * The polling loop both workers share: run a batch; when it found nothing,
 * sleep `pollMs` or until woken; errors (a database restart) are reported
 * and retried after a poll.
 */
export function createLoop(batch: () => Promise<number>, pollMs: number, onError: (error: unknown) => void): Worker {
  let running = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  let loop: Promise<void> | undefined;

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const run = async (): Promise<void> => {
    while (running) {
      woken = false;
      let count = 0;
      try {
        count = await batch();
      } catch (error) {
        if (running) onError(error);
      }
      if (!running) break;
      if (count === 0 && !woken) await sleep(pollMs);
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake() {
      woken = true;
      wakeUp?.();
    },
    runOnce: batch,
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
    },
  };
}
