// Webhook deliveries and their attempts: the outbox's queue of work for
// receivers (a kind of queued work, see queue.ts), as the workers claim and
// record it and as the API lists it.
import { keysetPage, type PageQuery } from '../http/paging.js';
import { complete, fail, type QueueKind } from './queue.js';
import type { SqlQueryable } from './sql.js';

/** How many of one registration's deliveries are in flight at once unless told otherwise. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 16;

/**
 * A registration's first `$n` due deliveries, in the order a claim takes
 * them (due longest first, then by event), those in flight included. Every
 * due pending delivery is the oldest pending one of its pass to its
 * registration: a later one waits parked (`next_attempt_at = 'infinity'`,
 * the schema's `passmint_delivery_queued`) until the one before it ends. So
 * taking any free one of these keeps each pass's order, and taking them only
 * from among the first `$n` keeps a registration at `$n` in flight or fewer:
 * the deliveries in flight were taken first, and stay at the front. Read
 * from `passmint_deliveries_ready`, which holds no parked delivery: at most
 * `$n` index entries per registration, whatever its backlog.
 */
const firstDue = (registration: string, limit: string, besides = ''): string => `
         select p.id, p.next_attempt_at, p.event_seq, p.locked_until
           from passmint_deliveries p
          where p.webhook_id = ${registration} and p.status = 'pending' and p.next_attempt_at < 'infinity' and p.next_attempt_at <= now()${besides}
          order by p.next_attempt_at, p.event_seq
          limit ${limit}`;

/**
 * Deliveries as queued work, `concurrency` at most in flight to one
 * registration at once (`$5`), each the oldest pending delivery of its pass
 * to that registration, so a receiver gets each pass's events in creation
 * order. A claim reads at most `concurrency` index entries per enabled
 * registration (see {@link firstDue}). More candidates than taken
 * (`$1 * 4`): workers polling at the same instant skip each other's.
 *
 * @example
 * ```ts
 * const kind = deliveryKind(16);
 * ```
 */
export function deliveryKind(concurrency: number): QueueKind {
  return {
    table: 'passmint_deliveries',
    claimable: `c.id in (
               select due.id
                 from passmint_webhooks w
                 cross join lateral (${firstDue('w.id', '$5')}) due
                where w.state = 'enabled'
                  and (due.locked_until is null or due.locked_until < now())
                order by due.next_attempt_at, due.event_seq
                -- More candidates than taken: workers polling at the same instant skip each other's.
                limit $1 * 4)
               and c.status = 'pending' and c.next_attempt_at <= now()`,
    order: 'c.next_attempt_at, c.event_seq',
    held: "status = 'pending'",
    returning: 'q.id, q.attempts, q.first_attempt_at, q.webhook_id, q.event_seq',
    payload: `select claimed.id, claimed.attempts, claimed.first_attempt_at, claimed.webhook_id, e.body, w.url, w.secret
         from claimed
         join passmint_events e on e.seq = claimed.event_seq
         join passmint_webhooks w on w.id = claimed.webhook_id`,
    params: [concurrency],
  };
}

/** Deliveries as queued work with the default concurrency (the table, for what every kind shares). */
export const DELIVERIES: QueueKind = deliveryKind(DEFAULT_WEBHOOK_CONCURRENCY);

/** A claimed delivery: what its attempt needs (the event's exact body, the receiver's URL and secret). */
export interface ClaimedDelivery {
  readonly id: number;
  readonly attempts: number;
  readonly first_attempt_at: Date | null;
  readonly webhook_id: string;
  readonly body: string;
  readonly url: string;
  readonly secret: string;
}

/** A next delivery claimed while recording another: `after` is the delivery it follows, `lease` that one's claim. */
export interface HandedOnDelivery extends ClaimedDelivery {
  readonly after: number;
  readonly lease: string;
}

/**
 * Records accepted deliveries (`$1` ids, `$2` start times in ms, `$3`
 * statuses, `$4` durations, `$5` their claims) in one statement: each
 * attempt once, each delivery delivered (which makes the next delivery of
 * its pass due: the schema's `passmint_delivery_ended`). It also hands the
 * slot of each recorded delivery whose `$6` is true on: it claims, for each enabled
 * registration whose deliveries it recorded, as many of its free due
 * deliveries as it recorded — or, when too few are free, the next ones of
 * the recorded ones' passes — while that registration stays at `$9` in
 * flight or fewer (under the recorded ones' claims, `$7` ms, owner `$8`),
 * and returns those. The rows it changes are locked in id order first, as
 * the lease heartbeat does, so two such statements never wait on each other
 * in a circle.
 */
const RECORD_RECEIVED = `with input as (
     select * from unnest($1::bigint[], $2::numeric[], $3::int[], $4::int[], $5::uuid[], $6::boolean[]) as x(id, started, status, ms, lease, follow)),
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
     returning d.id, d.webhook_id, d.pass_key, d.event_seq, d.attempts, d.last_status, x.lease, x.follow),
   timeline as (
     -- Each delivered one on its pass's timeline (a delivery that ends otherwise: the schema's passmint_console_delivery).
     insert into passmint_timeline (pass_type_identifier, serial_number, kind, detail)
     select x.d ->> 'passTypeIdentifier', x.d ->> 'serialNumber', 'delivered',
            json_build_object('event', x.type, 'webhookId', x.webhook_id, 'status', 'delivered', 'httpStatus', x.last_status,
                              'attempts', x.attempts, 'error', null)
       from (select done.id, done.webhook_id, done.last_status, done.attempts, e.type, passmint_event_data(e.body) as d
               from done join passmint_events e on e.seq = done.event_seq) x
      where x.d ->> 'passTypeIdentifier' is not null and x.d ->> 'serialNumber' is not null
      order by x.id),
   recorded as (
     -- The slots to hand on: the recorded deliveries of enabled registrations, numbered per registration.
     select done.id as after, done.lease, done.webhook_id, row_number() over (partition by done.webhook_id order by done.id) as n
       from done join passmint_webhooks w on w.id = done.webhook_id and w.state = 'enabled'
      where done.follow),
   due as (
     -- Each such registration's first $9 due deliveries besides those recorded here (which this statement's
     -- snapshot still sees pending): the others in flight, and the free ones.
     select r.webhook_id, p.id, p.next_attempt_at, p.event_seq, p.locked_until is not null and p.locked_until >= now() as busy
       from (select distinct webhook_id from recorded) r
       cross join lateral (${firstDue('r.webhook_id', '$9', ' and p.id <> all($1::bigint[])')}) p),
   room as (
     select r.webhook_id, $9 - count(due.id) filter (where due.busy) as free
       from (select distinct webhook_id from recorded) r left join due on due.webhook_id = r.webhook_id
      group by r.webhook_id),
   following as (
     -- The next delivery of each recorded one's pass, parked behind it until now (the schema's
     -- passmint_delivery_ended makes it due at the end of this statement, when this one does not take it).
     select n.id, r.webhook_id, n.event_seq
       from recorded r join done on done.id = r.after
       cross join lateral (
         select p.id, p.event_seq, p.next_attempt_at from passmint_deliveries p
          where p.webhook_id = done.webhook_id and p.pass_key = done.pass_key and p.status = 'pending' and p.id <> all($1::bigint[])
          order by p.event_seq
          limit 1) n
      where n.next_attempt_at = 'infinity'),
   candidate as (
     -- The free due ones first (due longest first), then the passes' next ones.
     select c.id, c.webhook_id, row_number() over (partition by c.webhook_id order by c.next_attempt_at, c.event_seq) as n
       from (select id, webhook_id, next_attempt_at, event_seq from due where not busy
             union all
             select id, webhook_id, 'infinity', event_seq from following) c),
   pick as (
     select c.id, r.after, r.lease
       from candidate c
       join room on room.webhook_id = c.webhook_id
       join recorded r on r.webhook_id = c.webhook_id and r.n = c.n
      where c.n <= room.free),
   free as (
     -- Locked and re-checked here: another worker may have taken one since it was read.
     select c.id, pick.after, pick.lease from passmint_deliveries c join pick on pick.id = c.id
      where c.status = 'pending' and (c.locked_until is null or c.locked_until < now())
      order by c.id
        for update of c skip locked),
   claimed as (
     update passmint_deliveries d
        set locked_until = now() + $7 * interval '1 millisecond', lease = free.lease, claimed_by = $8,
            next_attempt_at = least(d.next_attempt_at, now())
       from free
      where d.id = free.id
     returning d.id, d.attempts, d.first_attempt_at, d.webhook_id, d.event_seq, free.after, free.lease)
 select claimed.id, claimed.attempts, claimed.first_attempt_at, claimed.webhook_id, claimed.after, claimed.lease::text as lease, e.body, w.url, w.secret
   from claimed
   join passmint_events e on e.seq = claimed.event_seq
   join passmint_webhooks w on w.id = claimed.webhook_id`;

/** A delivery the receiver accepted, as {@link recordReceived} records it. */
export interface ReceivedDelivery {
  readonly id: number;
  /** When the attempt started, in ms since the epoch (with the id, it tells a retried statement's attempt from a new one). */
  readonly startedAt: number;
  readonly status: number | null;
  readonly durationMs: number;
  /** The claim it was delivered under. */
  readonly lease: string;
  /** Whether its slot is handed on: a next delivery of its registration claimed for it. */
  readonly follow: boolean;
}

/**
 * Records accepted deliveries in one statement (each attempt once, each
 * delivery delivered, the next of its pass made due) and, for each one that
 * `follow`s, claims a free due delivery of its registration, under the
 * recorded one's claim for `leaseMs`, while the registration stays at
 * `concurrency` in flight or fewer — the queue's hand-on: no claim round
 * between two events of one registration. Resolves to the deliveries it
 * claimed.
 *
 * @example
 * ```ts
 * const next = await recordReceived(db, [{ id: 1, startedAt: Date.now(), status: 200, durationMs: 12, lease, follow: true }], 60_000, owner, 16);
 * ```
 */
export async function recordReceived(
  sql: SqlQueryable,
  received: readonly ReceivedDelivery[],
  leaseMs: number,
  owner: string | null,
  concurrency: number,
): Promise<HandedOnDelivery[]> {
  const handedOn = await sql.query<HandedOnDelivery>(RECORD_RECEIVED, [
    received.map((item) => item.id),
    received.map((item) => String(item.startedAt)),
    received.map((item) => item.status),
    received.map((item) => item.durationMs),
    received.map((item) => item.lease),
    received.map((item) => item.follow),
    leaseMs,
    owner,
    concurrency,
  ]);
  // About one delivery in eight trims its pass's timeline (to about its newest 100 entries of the kinds anyone
  // holding the pass can cause). Housekeeping after the record: a trim that fails is left to the pass's next one.
  const trimming = received.filter((item) => item.id % 8 === 0).map((item) => item.id);
  if (trimming.length > 0) {
    await sql
      .query(
        `select passmint_timeline_trim(x.pt, x.sn)
         from (select distinct passmint_event_data(e.body) ->> 'passTypeIdentifier' as pt, passmint_event_data(e.body) ->> 'serialNumber' as sn
                 from passmint_deliveries d join passmint_events e on e.seq = d.event_seq where d.id = any ($1::bigint[])) x
        where x.pt is not null and x.sn is not null`,
        [trimming],
      )
      .catch(() => undefined);
  }
  return handedOn;
}

/** An attempt that was not accepted, as the delivery's history keeps it. */
export interface FailedAttempt {
  readonly outcome: 'retry' | 'gone';
  /** When it started, in ms since the epoch. */
  readonly startedAt: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/**
 * Adds an attempt to a delivery's history, once: a transaction run again
 * because its commit's answer was lost adds nothing the second time.
 *
 * @example
 * ```ts
 * await addAttempt(tx, 1, { outcome: 'retry', startedAt, status: 503, error: null, durationMs: 40 });
 * ```
 */
export async function addAttempt(sql: SqlQueryable, deliveryId: number, attempt: FailedAttempt): Promise<void> {
  await sql.query(
    `insert into passmint_attempts (delivery_id, attempted_at, outcome, status, error, duration_ms)
     select $1::bigint, to_timestamp($2 / 1000.0), $3::text, $4::int, $5::text, $6::int
      where not exists (select 1 from passmint_attempts where delivery_id = $1 and attempted_at = to_timestamp($2 / 1000.0))`,
    [deliveryId, attempt.startedAt, attempt.outcome, attempt.status, attempt.error, attempt.durationMs],
  );
}

/** The changes of an attempt that was not accepted: counted, its answer kept, its start the first attempt's if none was. */
const attempted = (attempt: FailedAttempt): { set: string; params: readonly unknown[] } => ({
  set: `attempts = attempts + 1, last_status = $2, last_error = $3,
                      first_attempt_at = coalesce(first_attempt_at, to_timestamp($4 / 1000.0))`,
  params: [attempt.status, attempt.error, attempt.startedAt],
});

/**
 * Schedules a delivery's next attempt in `delayMs` after a failed one; only
 * the holder of `lease` may (a worker whose lease ran out must not move
 * another's schedule).
 *
 * @example
 * ```ts
 * await retryDelivery(tx, 1, attempt, 5000, lease);
 * ```
 */
export async function retryDelivery(sql: SqlQueryable, id: number, attempt: FailedAttempt, delayMs: number, lease: string): Promise<void> {
  await fail(sql, DELIVERIES, id, attempted(attempt), delayMs, lease);
}

/**
 * Gives a delivery up after a failed attempt (no attempt left): `failed`
 * (the next delivery of its pass to its registration becomes due). With `lease`, only its holder may; without, whoever holds it (a receiver
 * that answered `410 Gone` wants no more, whoever asked).
 *
 * @example
 * ```ts
 * await giveUpDelivery(tx, 1, attempt, lease);
 * ```
 */
export async function giveUpDelivery(sql: SqlQueryable, id: number, attempt: FailedAttempt, lease?: string): Promise<void> {
  const changes = attempted(attempt);
  await complete(sql, DELIVERIES, id, { set: `status = 'failed', ${changes.set}`, params: changes.params }, lease);
}

/**
 * Cancels what is pending for a registration (it was disabled).
 *
 * @example
 * ```ts
 * await cancelPendingDeliveries(tx, webhookId);
 * ```
 */
export async function cancelPendingDeliveries(sql: SqlQueryable, webhookId: string): Promise<void> {
  await sql.query(`update passmint_deliveries set status = 'cancelled' where webhook_id = $1 and status = 'pending'`, [webhookId]);
}

/**
 * What `/metrics` reads of the webhook queue besides the counts kept as the
 * rows change (db/row-counts.ts): pending deliveries waiting for a retry
 * (due later; not those parked behind an earlier delivery of their pass,
 * which are counted), and how long the oldest due one has been due
 * (seconds, `null` when none is).
 */
export interface DeliveryQueueFigures {
  readonly waiting: number;
  readonly oldest: number | null;
}

/**
 * The webhook queue's figures (every process's), bounded: the oldest pending
 * delivery is the first entry of the pending deliveries' partial index, and
 * only the deliveries scheduled for a later retry (a few per registration:
 * only those in flight are ever attempted) are counted — the pending ones
 * due now are the kept counts, pending less parked, less those.
 *
 * @example
 * ```ts
 * await deliveryQueueFigures(db); // { waiting: 2, oldest: 0.2 }
 * ```
 */
export async function deliveryQueueFigures(sql: SqlQueryable): Promise<DeliveryQueueFigures> {
  const [row] = await sql.query<{ waiting: number; oldest: number | null }>(
    `select (select count(*)::int from passmint_deliveries where status = 'pending' and next_attempt_at > now() and next_attempt_at < 'infinity') as waiting,
            (select extract(epoch from now() - m)::float8 from (select min(next_attempt_at) as m from passmint_deliveries where status = 'pending') x
              where m <= now()) as oldest`,
  );
  return row ?? { waiting: 0, oldest: null };
}

// Events older than the cutoff none of whose deliveries is still pending: replays and
// retries are done with them. Oldest first, read from the index on created_at (from the
// oldest on, never the recent ones).
const FINISHED = `select e.seq from passmint_events e
  where e.created_at < now() - $1 * interval '1 day'
    and not exists (select 1 from passmint_deliveries p where p.event_seq = e.seq and p.status = 'pending')
  order by e.created_at limit $2`;

/**
 * Deletes at most `limit` attempts of deliveries of events older than
 * `days` whole days whose deliveries all ended (retention); resolves to how
 * many went.
 *
 * @example
 * ```ts
 * await deleteFinishedAttempts(tx, 30, 1000);
 * ```
 */
export async function deleteFinishedAttempts(sql: SqlQueryable, days: number, limit: number): Promise<number> {
  return counted(
    sql,
    `delete from passmint_attempts where id in (
        select a.id from passmint_attempts a join passmint_deliveries d on d.id = a.delivery_id
         where d.event_seq in (${FINISHED}) limit $2)`,
    days,
    limit,
  );
}

/**
 * Deletes at most `limit` deliveries, left without attempts, of events older
 * than `days` whole days whose deliveries all ended (retention); resolves
 * to how many went.
 *
 * @example
 * ```ts
 * await deleteFinishedDeliveries(tx, 30, 1000);
 * ```
 */
export async function deleteFinishedDeliveries(sql: SqlQueryable, days: number, limit: number): Promise<number> {
  return counted(
    sql,
    `delete from passmint_deliveries where id in (
        select d.id from passmint_deliveries d
         where d.event_seq in (${FINISHED})
           and not exists (select 1 from passmint_attempts a where a.delivery_id = d.id)
         limit $2)`,
    days,
    limit,
  );
}

/** Runs a bounded delete (`$1` days, `$2` limit) and counts its rows. */
async function counted(sql: SqlQueryable, text: string, days: number, limit: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(`with gone as (${text} returning 1) select count(*)::int as n from gone`, [days, limit]);
  return rows[0]?.n ?? 0;
}

/** One delivery of one event to one registration, with its attempts. */
export interface DeliveryRecord {
  readonly id: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly webhookId: string;
  readonly status: 'pending' | 'delivered' | 'failed' | 'cancelled';
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: Date | null;
  readonly history: readonly AttemptRecord[];
}

/** One POST of a delivery. */
export interface AttemptRecord {
  readonly at: Date;
  readonly outcome: string;
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

interface DeliveryRow {
  id: number;
  event_id: string;
  event_type: string;
  webhook_id: string;
  status: DeliveryRecord['status'];
  attempts: number;
  /** Null while it waits for an earlier delivery of its pass. */
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

/**
 * Deliveries with their attempts, a page at a time by id (see
 * {@link keysetPage}): of one event (`eventSeq`) or of one registration
 * (`webhookId`).
 */
export async function listDeliveries(
  sql: SqlQueryable,
  filter: { readonly eventSeq: number } | { readonly webhookId: string },
  query: PageQuery,
): Promise<DeliveryRecord[]> {
  const select = `select d.id, e.id as event_id, e.type as event_type, d.webhook_id, d.status, d.attempts,
                         case when d.next_attempt_at < 'infinity' then d.next_attempt_at end as next_attempt_at,
                         d.last_status, d.last_error, d.delivered_at
                    from passmint_deliveries d join passmint_events e on e.seq = d.event_seq`;
  const page = keysetPage('d.id', query, 2);
  const rows =
    'eventSeq' in filter
      ? await sql.query<DeliveryRow>(`${select} where d.event_seq = $1 and ${page.sql}`, [filter.eventSeq, ...page.params])
      : await sql.query<DeliveryRow>(`${select} where d.webhook_id = $1::uuid and ${page.sql}`, [filter.webhookId, ...page.params]);
  if (rows.length === 0) return [];
  const attempts = await sql.query<{
    delivery_id: number;
    attempted_at: Date;
    outcome: string;
    status: number | null;
    error: string | null;
    duration_ms: number;
  }>(
    `select delivery_id, attempted_at, outcome, status, error, duration_ms from passmint_attempts
      where delivery_id = any($1::bigint[]) order by id`,
    [rows.map((row) => row.id)],
  );
  const byDelivery = new Map<number, AttemptRecord[]>();
  for (const attempt of attempts) {
    let list = byDelivery.get(attempt.delivery_id);
    if (list === undefined) byDelivery.set(attempt.delivery_id, (list = []));
    list.push({ at: attempt.attempted_at, outcome: attempt.outcome, status: attempt.status, error: attempt.error, durationMs: attempt.duration_ms });
  }
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    webhookId: row.webhook_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
    history: byDelivery.get(row.id) ?? [],
  }));
}

/**
 * Sends an event again to every enabled registration (or one): its
 * delivery becomes pending with a fresh retry schedule, due now — or, when
 * a delivery of its pass to that registration is pending, after that one
 * (the schema's `passmint_delivery_queued` decides, for the row it would
 * insert: `excluded`). One still pending keeps its place. The attempts made
 * so far stay in its history. Returns how many were queued.
 */
export async function replayEvent(sql: SqlQueryable, seq: number, webhookId?: string): Promise<number> {
  const rows = await sql.query(
    `insert into passmint_deliveries (event_seq, webhook_id, status)
     select $1, id, 'pending' from passmint_webhooks where state = 'enabled' and ($2::uuid is null or id = $2::uuid)
       -- To every registration: those that take the event's type; to one named: as asked.
       and ($2::uuid is not null or events is null or (select e.type from passmint_events e where e.seq = $1) = any (events))
     on conflict (event_seq, webhook_id) do update
       set status = 'pending', pass_key = excluded.pass_key,
           next_attempt_at = case when passmint_deliveries.status <> 'pending' then excluded.next_attempt_at
                                  when passmint_deliveries.next_attempt_at < 'infinity' then now()
                                  else passmint_deliveries.next_attempt_at end,
           attempts = 0, first_attempt_at = null, locked_until = null, lease = null
     returning 1`,
    [seq, webhookId ?? null],
  );
  return rows.length;
}
