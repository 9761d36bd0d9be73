// Webhook registrations as rows.
import { keysetPage, type PageQuery } from '../http/paging.js';
import { cancelPendingDeliveries } from './deliveries.js';
import type { SqlQueryable } from './sql.js';

/** A webhook registration as stored. */
export interface WebhookRecord {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
  readonly state: 'pending' | 'enabled' | 'disabled';
  readonly stateReason: string | null;
  /** The event types it receives; `null`: every type (`webhook.verify` is always sent). */
  readonly events: readonly string[] | null;
  readonly created: Date;
  readonly updated: Date;
  readonly seq: number;
}

interface WebhookRow {
  id: string;
  url: string;
  secret: string;
  state: WebhookRecord['state'];
  state_reason: string | null;
  events: string[] | null;
  created_at: Date;
  updated_at: Date;
  seq: number;
}

const webhookColumns = 'id, url, secret, state, state_reason, events, created_at, updated_at, seq';

const toWebhook = (row: WebhookRow): WebhookRecord => ({
  id: row.id,
  url: row.url,
  secret: row.secret,
  state: row.state,
  stateReason: row.state_reason,
  events: row.events,
  created: row.created_at,
  updated: row.updated_at,
  seq: row.seq,
});

/** Registers a receiver, `pending` until its handshake succeeds, for the event types `events` (`null`: all). */
export async function insertWebhook(sql: SqlQueryable, url: string, secret: string, events: readonly string[] | null = null): Promise<WebhookRecord> {
  const rows = await sql.query<WebhookRow>(
    `insert into passmint_webhooks (id, url, secret, state, events) values ($1, $2, $3, 'pending', $4::text[]) returning ${webhookColumns}`,
    [crypto.randomUUID(), url, secret, events],
  );
  return toWebhook(rows[0]!);
}

/** A registration by id, or `undefined`. */
export async function findWebhook(sql: SqlQueryable, id: string): Promise<WebhookRecord | undefined> {
  const rows = await sql.query<WebhookRow>(`select ${webhookColumns} from passmint_webhooks where id = $1`, [id]);
  return rows[0] === undefined ? undefined : toWebhook(rows[0]);
}

/** A page of registrations in creation order (see {@link keysetPage}). */
export async function listWebhooks(sql: SqlQueryable, query: PageQuery): Promise<WebhookRecord[]> {
  const page = keysetPage('seq', query, 1);
  const rows = await sql.query<WebhookRow>(`select ${webhookColumns} from passmint_webhooks where ${page.sql}`, page.params);
  return rows.map(toWebhook);
}

/** Moves a registration to a state; disabling cancels what was pending for it. */
export async function setWebhookState(sql: SqlQueryable, id: string, state: WebhookRecord['state'], reason: string | null): Promise<WebhookRecord | undefined> {
  const rows = await sql.query<WebhookRow>(
    `update passmint_webhooks set state = $2, state_reason = $3, updated_at = now() where id = $1 returning ${webhookColumns}`,
    [id, state, reason],
  );
  if (rows[0] !== undefined && state === 'disabled') await cancelPendingDeliveries(sql, id);
  return rows[0] === undefined ? undefined : toWebhook(rows[0]);
}

/** Replaces a registration's signing secret; `undefined` when there is no such registration. */
export async function setWebhookSecret(sql: SqlQueryable, id: string, secret: string): Promise<WebhookRecord | undefined> {
  const rows = await sql.query<WebhookRow>(`update passmint_webhooks set secret = $2, updated_at = now() where id = $1 returning ${webhookColumns}`, [
    id,
    secret,
  ]);
  return rows[0] === undefined ? undefined : toWebhook(rows[0]);
}

/**
 * Sets the event types a registration receives (`null`: every type); from
 * the next event on. `undefined` when there is no such registration.
 *
 * @example
 * ```ts
 * await setWebhookEvents(db, id, ['pass.updated', 'job.completed']);
 * ```
 */
export async function setWebhookEvents(sql: SqlQueryable, id: string, events: readonly string[] | null): Promise<WebhookRecord | undefined> {
  const rows = await sql.query<WebhookRow>(`update passmint_webhooks set events = $2::text[], updated_at = now() where id = $1 returning ${webhookColumns}`, [
    id,
    events,
  ]);
  return rows[0] === undefined ? undefined : toWebhook(rows[0]);
}

/**
 * Disables an enabled registration whose receiver answered `410 Gone`
 * (the caller cancels what was pending for it, in the same transaction).
 *
 * @example
 * ```ts
 * await disableGoneWebhook(tx, webhookId);
 * ```
 */
export async function disableGoneWebhook(sql: SqlQueryable, id: string): Promise<void> {
  await sql.query(`update passmint_webhooks set state = 'disabled', state_reason = 'gone', updated_at = now() where id = $1 and state = 'enabled'`, [id]);
}
