// Events, their deliveries and attempts, as the API shows them; replays.
import { keysetPage, type PageQuery } from '../http/paging.js';
import type { SqlQueryable } from './sql.js';

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
  next_attempt_at: Date;
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
  const select = `select d.id, e.id as event_id, e.type as event_type, d.webhook_id, d.status, d.attempts, d.next_attempt_at,
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

/** An event as stored: its exact JSON and its place in the outbox. */
export interface EventRecord {
  readonly seq: number;
  readonly id: string;
  readonly type: string;
  readonly body: string;
}

export async function findEvent(sql: SqlQueryable, id: string): Promise<EventRecord | undefined> {
  const rows = await sql.query<EventRecord>('select seq, id, type, body from passmint_events where id = $1', [id]);
  return rows[0];
}

/** A page of events by number (see {@link keysetPage}). */
export async function listEvents(sql: SqlQueryable, query: PageQuery): Promise<EventRecord[]> {
  const page = keysetPage('seq', query, 1);
  return sql.query<EventRecord>(`select seq, id, type, body from passmint_events where ${page.sql}`, page.params);
}

/**
 * Sends an event again to every enabled registration (or one): its
 * delivery becomes pending and due now, with a fresh retry schedule; the
 * attempts made so far stay in its history. Returns how many were queued.
 */
export async function replayEvent(sql: SqlQueryable, seq: number, webhookId?: string): Promise<number> {
  const rows = await sql.query(
    `insert into passmint_deliveries (event_seq, webhook_id, status)
     select $1, id, 'pending' from passmint_webhooks where state = 'enabled' and ($2::uuid is null or id = $2::uuid)
     on conflict (event_seq, webhook_id) do update
       set status = 'pending', next_attempt_at = now(), attempts = 0, first_attempt_at = null, locked_until = null, lease = null
     returning 1`,
    [seq, webhookId ?? null],
  );
  return rows.length;
}
