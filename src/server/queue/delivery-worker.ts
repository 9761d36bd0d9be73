import { deliver } from '../../webhooks/deliver.js';
import type { DeliveryResult } from '../../webhooks/deliver.js';
import { DEFAULT_TIMEOUT_MS, type FetchLike } from '../../webhooks/post.js';
import { nextRetryDelay } from '../../webhooks/retry.js';
import { signPayload } from '../../webhooks/signature.js';
import {
  addAttempt,
  cancelPendingDeliveries,
  DEFAULT_WEBHOOK_CONCURRENCY,
  deliveryKind,
  giveUpDelivery,
  recordReceived,
  retryDelivery,
  type ClaimedDelivery,
  type FailedAttempt,
} from '../db/deliveries.js';
import type { SqlDatabase } from '../db/sql.js';
import { disableGoneWebhook } from '../db/webhooks.js';
import { defaultLeaseMs } from './lease.js';
import { createQueue, type JobContext } from './queue.js';
import { retryWhileUnavailable, type Claim, type Worker } from './queue-worker.js';

export type { Worker } from './queue-worker.js';

/**
 * How a process delivers the outbox.
 *
 * @example
 * ```ts
 * const options: DeliveryOptions = { batchSize: 20, pollMs: 500, maxAttempts: 30 };
 * ```
 */
export interface DeliveryOptions {
  /**
   * Most deliveries one worker sends at once, to all registrations together; default 64. Each ends on its
   * own: a slow receiver holds its own (at most `webhookConcurrency`), not the others.
   */
  readonly batchSize?: number | undefined;
  /**
   * Most deliveries in flight to one registration at once, counted over every process on the database;
   * default 16 (`passmint serve --webhook-concurrency`). Each is the oldest pending delivery of its pass, so a
   * receiver gets each pass's events in order. 1: one at a time, each registration's events in creation order.
   */
  readonly webhookConcurrency?: number | undefined;
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
  /** Opens a registration's secret as stored (sealed under the secret key); default: stored in clear. */
  readonly openSecret?: ((stored: string) => string) | undefined;
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

/** Most accepted deliveries one statement records. */
const MAX_RECORDED = 64;

/**
 * Most deliveries a slot sends in a row, each claimed as the one before is
 * recorded; then it goes back to the claim round, which takes the longest
 * due across every registration. Without it, registrations with endless
 * backlogs could keep every slot and another registration would wait for
 * them all to drain.
 */
const MAX_HANDED_ON = 64;

interface Accepted {
  readonly row: ClaimedDelivery;
  /** How many were handed on in a row before it in its slot. */
  readonly chain: number;
  readonly lease: string;
  readonly status: number | null;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly follow: boolean;
  readonly stopping: () => boolean;
  readonly resolve: (next: Claim<ClaimedDelivery> | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/** PostgreSQL's deadlock_detected: the statement was undone as a whole and may run again. */
const isDeadlock = (error: unknown): boolean => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '40P01';

/**
 * Throws a `RangeError` naming `delivery.webhookConcurrency` unless it is
 * undefined or a whole number of at least 1.
 *
 * @example
 * ```ts
 * checkWebhookConcurrency(16); // fine
 * ```
 */
export function checkWebhookConcurrency(value: number | undefined): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1)) {
    throw new RangeError(`delivery.webhookConcurrency must be a whole number of at least 1, not ${value}`);
  }
}

/**
 * Claims due deliveries with `FOR UPDATE SKIP LOCKED` — at most
 * `webhookConcurrency` of a registration's at once, each the oldest
 * pending delivery of its pass, so a registration receives each pass's
 * events in creation order — leases them for `leaseMs` (extended while in
 * flight), posts each with `deliver`, records the attempt, and schedules
 * the next with `nextRetryDelay` (honouring `Retry-After`). `410 Gone`
 * disables the registration and cancels what was pending for it. A free
 * slot is filled as soon as a delivery ends (see {@link createQueue}).
 *
 * @example
 * ```ts
 * const worker = createDeliveryWorker(db, { allowPrivateNetworks: true });
 * worker.start();
 * ```
 */
export function createDeliveryWorker(db: SqlDatabase, options: DeliveryOptions = {}, onError: (error: unknown) => void = () => undefined): Worker {
  const batchSize = options.batchSize ?? 64;
  const concurrency = options.webhookConcurrency ?? DEFAULT_WEBHOOK_CONCURRENCY;
  checkWebhookConcurrency(concurrency);
  const kind = deliveryKind(concurrency);
  // How many were handed on in a row before a delivery in its slot (those claimed by a claim round: none).
  const chains = new WeakMap<ClaimedDelivery, number>();
  const leaseMs = options.leaseMs ?? defaultLeaseMs(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const attemptOptions = {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    allowPrivateNetworks: options.allowPrivateNetworks === true,
  };

  const attempt = async (row: ClaimedDelivery): Promise<DeliveryResult> => {
    try {
      const signature = await signPayload(row.body, options.openSecret?.(row.secret) ?? row.secret);
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

  const recordAccepted = async (batch: readonly Accepted[], owner: string | null): Promise<void> => {
    const rows = await retryWhileUnavailable(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await recordReceived(
            db,
            batch.map((item) => ({
              id: item.row.id,
              startedAt: item.startedAt,
              status: item.status,
              durationMs: item.durationMs,
              lease: item.lease,
              follow: item.follow && item.chain < MAX_HANDED_ON && !item.stopping(),
            })),
            leaseMs,
            owner,
            concurrency,
          );
        } catch (error) {
          // Undone as a whole (nothing recorded, nothing claimed): the same statement again.
          if (!isDeadlock(error) || attempt >= 5) throw error;
        }
      }
    }, batch[0]!.stopping);
    const byAfter = new Map(rows.map((row) => [Number(row.after), row]));
    for (const item of batch) {
      const next = byAfter.get(item.row.id);
      if (next === undefined) {
        item.resolve(undefined);
        continue;
      }
      const job: ClaimedDelivery = {
        id: next.id,
        attempts: next.attempts,
        first_attempt_at: next.first_attempt_at,
        webhook_id: next.webhook_id,
        body: next.body,
        url: next.url,
        secret: next.secret,
      };
      chains.set(job, item.chain + 1);
      item.resolve({ job, lease: next.lease });
    }
  };

  const writeAccepted = async (owner: string | null): Promise<void> => {
    recording = true;
    try {
      while (accepted.length > 0) {
        const batch = accepted.slice(0, MAX_RECORDED);
        accepted = accepted.slice(batch.length);
        try {
          await recordAccepted(batch, owner);
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      recording = false;
    }
  };

  const record = async (row: ClaimedDelivery, result: DeliveryResult, startedAt: number, context: JobContext): Promise<Claim<ClaimedDelivery> | undefined> => {
    const { lease, follow, stopping } = context;
    const durationMs = Math.max(0, Math.round(Date.now() - startedAt));
    const status = result.status ?? null;
    if (result.outcome === 'received') {
      // The common case: recorded with the others that end meanwhile, in one statement (atomic on its own), which also
      // claims the registration's next delivery for this slot — no claim round between two events of one registration.
      return new Promise((resolve, reject) => {
        accepted.push({ row, chain: chains.get(row) ?? 0, lease, status, startedAt, durationMs, follow, stopping, resolve, reject });
        if (!recording) void writeAccepted(context.owner);
      });
    }
    const failed: FailedAttempt = { outcome: result.outcome, startedAt, status, error: result.ok ? null : (result.error ?? null), durationMs };
    await retryWhileUnavailable(() => recordOther(row, lease, result, failed), stopping);
    return undefined;
  };

  const recordOther = async (
    row: ClaimedDelivery,
    lease: string,
    result: Exclude<DeliveryResult, { outcome: 'received' }>,
    failed: FailedAttempt,
  ): Promise<void> => {
    await db.transaction(async (tx) => {
      await addAttempt(tx, row.id, failed);
      if (result.outcome === 'gone') {
        // The receiver wants no more: whoever holds the delivery, it and the rest of the registration's queue end here.
        await giveUpDelivery(tx, row.id, failed);
        await disableGoneWebhook(tx, row.webhook_id);
        await cancelPendingDeliveries(tx, row.webhook_id);
        return;
      }
      const delay = nextRetryDelay(row.attempts + 1, {
        retryAfterMs: result.retryAfterMs,
        maxAttempts: options.maxAttempts,
        maxAgeMs: options.maxAgeMs,
        firstAttemptAt: row.first_attempt_at?.getTime() ?? failed.startedAt,
      });
      // Only the holder of the claim reschedules: a worker whose lease ran out must not move another's schedule.
      if (delay === undefined) await giveUpDelivery(tx, row.id, failed, lease);
      else await retryDelivery(tx, row.id, failed, delay, lease);
    });
  };

  return createQueue<ClaimedDelivery>(db, {
    kind,
    capacity: batchSize,
    pollMs: options.pollMs ?? 1000,
    leaseMs,
    async run(row, context) {
      const startedAt = Date.now();
      const result = await attempt(row);
      options.onAttempt?.({
        deliveryId: row.id,
        webhookId: row.webhook_id,
        attempt: row.attempts + 1,
        outcome: result.outcome,
        status: result.status ?? null,
        ms: Date.now() - startedAt,
      });
      // The receiver has answered: its answer is recorded even if the database is away for a while.
      return record(row, result, startedAt, context);
    },
    onError,
  });
}
