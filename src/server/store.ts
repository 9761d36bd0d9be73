// The service's rows: templates and their files, passes, webhook
// registrations, events with their deliveries and attempts. Plain functions
// over a SqlQueryable, so each can run alone or inside a caller's transaction.
import type { JsonObject, Pass, PassTemplate } from '../types.js';
import type { SqlQueryable } from './sql.js';

/** A template as stored: the PassTemplate (its `id` is the row's) and its version. */
export interface TemplateRecord {
  readonly template: PassTemplate;
  readonly version: number;
  readonly created: Date;
  readonly updated: Date;
}

/** A pass as stored. */
export interface PassRecord {
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
  readonly templateId: number;
  readonly values: JsonObject;
  readonly pass: Pass;
  readonly version: number;
  readonly created: Date;
  readonly updated: Date;
  readonly seq: number;
}

/** A webhook registration as stored. */
export interface WebhookRecord {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
  readonly state: 'pending' | 'enabled' | 'disabled';
  readonly stateReason: string | null;
  readonly created: Date;
  readonly updated: Date;
  readonly seq: number;
}

interface TemplateRow {
  id: number;
  template: PassTemplate;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const toTemplate = (row: TemplateRow): TemplateRecord => ({
  // The row's id wins over whatever the stored object says.
  template: { ...row.template, id: row.id },
  version: row.version,
  created: row.created_at,
  updated: row.updated_at,
});

/** Takes the next template id (so the stored object can carry it). */
export async function nextTemplateId(sql: SqlQueryable): Promise<number> {
  const rows = await sql.query<{ id: number }>(`select nextval(pg_get_serial_sequence('passmint_templates', 'id'))::int as id`);
  return rows[0]!.id;
}

export async function insertTemplate(sql: SqlQueryable, template: PassTemplate): Promise<TemplateRecord> {
  const rows = await sql.query<TemplateRow>(
    `insert into passmint_templates (id, template) values ($1, $2::json) returning id, template, version, created_at, updated_at`,
    [template.id, JSON.stringify(template)],
  );
  return toTemplate(rows[0]!);
}

export async function findTemplate(sql: SqlQueryable, id: number): Promise<TemplateRecord | undefined> {
  const rows = await sql.query<TemplateRow>(
    'select id, template, version, created_at, updated_at from passmint_templates where id = $1',
    [id],
  );
  return rows[0] === undefined ? undefined : toTemplate(rows[0]);
}

export async function listTemplates(sql: SqlQueryable, after: number, limit: number): Promise<TemplateRecord[]> {
  const rows = await sql.query<TemplateRow>(
    'select id, template, version, created_at, updated_at from passmint_templates where id > $1 order by id limit $2',
    [after, limit],
  );
  return rows.map(toTemplate);
}

export async function updateTemplate(sql: SqlQueryable, template: PassTemplate): Promise<TemplateRecord | undefined> {
  const rows = await sql.query<TemplateRow>(
    `update passmint_templates set template = $2::json, version = version + 1, updated_at = now() where id = $1
     returning id, template, version, created_at, updated_at`,
    [template.id, JSON.stringify(template)],
  );
  return rows[0] === undefined ? undefined : toTemplate(rows[0]);
}

/** `deleted`, `missing`, or `in-use` when passes were made from it (they keep their template). */
export async function deleteTemplate(sql: SqlQueryable, id: number): Promise<'deleted' | 'missing' | 'in-use'> {
  const used = await sql.query('select 1 from passmint_passes where template_id = $1 limit 1', [id]);
  if (used.length > 0) return 'in-use';
  const rows = await sql.query('delete from passmint_templates where id = $1 returning 1', [id]);
  return rows.length > 0 ? 'deleted' : 'missing';
}

/** Bumps the template's version: the prepared files cached for it are stale. */
async function touchTemplate(sql: SqlQueryable, id: number): Promise<boolean> {
  const rows = await sql.query('update passmint_templates set version = version + 1, updated_at = now() where id = $1 returning 1', [id]);
  return rows.length > 0;
}

export async function putTemplateFile(sql: SqlQueryable, id: number, path: string, bytes: Uint8Array): Promise<boolean> {
  if (!(await touchTemplate(sql, id))) return false;
  await sql.query(
    `insert into passmint_template_files (template_id, path, bytes) values ($1, $2, $3)
     on conflict (template_id, path) do update set bytes = excluded.bytes`,
    [id, path, bytes],
  );
  return true;
}

export async function deleteTemplateFile(sql: SqlQueryable, id: number, path: string): Promise<boolean> {
  const rows = await sql.query('delete from passmint_template_files where template_id = $1 and path = $2 returning 1', [id, path]);
  if (rows.length === 0) return false;
  await touchTemplate(sql, id);
  return true;
}

export async function templateFiles(sql: SqlQueryable, id: number): Promise<Map<string, Uint8Array>> {
  const rows = await sql.query<{ path: string; bytes: Uint8Array }>(
    'select path, bytes from passmint_template_files where template_id = $1 order by path',
    [id],
  );
  return new Map(rows.map((row) => [row.path, row.bytes]));
}

export async function templateFileSizes(sql: SqlQueryable, id: number): Promise<{ path: string; size: number }[]> {
  return sql.query<{ path: string; size: number }>(
    'select path, octet_length(bytes) as size from passmint_template_files where template_id = $1 order by path',
    [id],
  );
}

interface PassRow {
  pass_type_identifier: string;
  serial_number: string;
  template_id: number;
  pass_values: JsonObject;
  pass: Pass;
  version: number;
  created_at: Date;
  updated_at: Date;
  seq: number;
}

const passColumns = 'pass_type_identifier, serial_number, template_id, pass_values, pass, version, created_at, updated_at, seq';

const toPass = (row: PassRow): PassRecord => ({
  passTypeIdentifier: row.pass_type_identifier,
  serialNumber: row.serial_number,
  templateId: row.template_id,
  values: row.pass_values,
  pass: row.pass,
  version: row.version,
  created: row.created_at,
  updated: row.updated_at,
  seq: row.seq,
});

/** Inserts a pass; `undefined` when one with its serial number already exists. */
export async function insertPass(sql: SqlQueryable, templateId: number, values: JsonObject, pass: Pass): Promise<PassRecord | undefined> {
  const rows = await sql.query<PassRow>(
    `insert into passmint_passes (pass_type_identifier, serial_number, template_id, pass_values, pass)
     values ($1, $2, $3, $4::json, $5::json)
     on conflict (pass_type_identifier, serial_number) do nothing
     returning ${passColumns}`,
    [pass.passTypeIdentifier, pass.serialNumber, templateId, JSON.stringify(values), JSON.stringify(pass)],
  );
  return rows[0] === undefined ? undefined : toPass(rows[0]);
}

export async function findPass(
  sql: SqlQueryable,
  passTypeIdentifier: string,
  serialNumber: string,
  lock = false,
): Promise<PassRecord | undefined> {
  const rows = await sql.query<PassRow>(
    `select ${passColumns} from passmint_passes where pass_type_identifier = $1 and serial_number = $2${lock ? ' for update' : ''}`,
    [passTypeIdentifier, serialNumber],
  );
  return rows[0] === undefined ? undefined : toPass(rows[0]);
}

export async function listPasses(sql: SqlQueryable, after: number, limit: number, templateId?: number): Promise<PassRecord[]> {
  const rows = await sql.query<PassRow>(
    `select ${passColumns} from passmint_passes where seq > $1 and ($3::int is null or template_id = $3) order by seq limit $2`,
    [after, limit, templateId ?? null],
  );
  return rows.map(toPass);
}

export async function updatePass(sql: SqlQueryable, values: JsonObject, pass: Pass): Promise<PassRecord> {
  const rows = await sql.query<PassRow>(
    `update passmint_passes set pass_values = $3::json, pass = $4::json, version = version + 1, updated_at = now()
      where pass_type_identifier = $1 and serial_number = $2 returning ${passColumns}`,
    [pass.passTypeIdentifier, pass.serialNumber, JSON.stringify(values), JSON.stringify(pass)],
  );
  return toPass(rows[0]!);
}

/** Deletes a pass and the devices' registrations of it; `false` when there was none. */
export async function deletePass(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<boolean> {
  const rows = await sql.query('delete from passmint_passes where pass_type_identifier = $1 and serial_number = $2 returning 1', [
    passTypeIdentifier,
    serialNumber,
  ]);
  if (rows.length === 0) return false;
  await sql.query('delete from passmint_wallet_registrations where pass_type_identifier = $1 and serial_number = $2', [
    passTypeIdentifier,
    serialNumber,
  ]);
  return true;
}

/** Queues one APNs push per distinct device token registered for the pass. */
export async function queuePushes(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<void> {
  await sql.query(
    `insert into passmint_pushes (push_token, topic, status)
     select distinct push_token, pass_type_identifier, 'pending' from passmint_wallet_registrations
      where pass_type_identifier = $1 and serial_number = $2`,
    [passTypeIdentifier, serialNumber],
  );
}

interface WebhookRow {
  id: string;
  url: string;
  secret: string;
  state: WebhookRecord['state'];
  state_reason: string | null;
  created_at: Date;
  updated_at: Date;
  seq: number;
}

const webhookColumns = 'id, url, secret, state, state_reason, created_at, updated_at, seq';

const toWebhook = (row: WebhookRow): WebhookRecord => ({
  id: row.id,
  url: row.url,
  secret: row.secret,
  state: row.state,
  stateReason: row.state_reason,
  created: row.created_at,
  updated: row.updated_at,
  seq: row.seq,
});

export async function insertWebhook(sql: SqlQueryable, url: string, secret: string): Promise<WebhookRecord> {
  const rows = await sql.query<WebhookRow>(
    `insert into passmint_webhooks (id, url, secret, state) values ($1, $2, $3, 'pending') returning ${webhookColumns}`,
    [crypto.randomUUID(), url, secret],
  );
  return toWebhook(rows[0]!);
}

export async function findWebhook(sql: SqlQueryable, id: string): Promise<WebhookRecord | undefined> {
  const rows = await sql.query<WebhookRow>(`select ${webhookColumns} from passmint_webhooks where id = $1`, [id]);
  return rows[0] === undefined ? undefined : toWebhook(rows[0]);
}

export async function listWebhooks(sql: SqlQueryable, after: number, limit: number): Promise<WebhookRecord[]> {
  const rows = await sql.query<WebhookRow>(`select ${webhookColumns} from passmint_webhooks where seq > $1 order by seq limit $2`, [
    after,
    limit,
  ]);
  return rows.map(toWebhook);
}

/** Moves a registration to a state; disabling cancels what was pending for it. */
export async function setWebhookState(
  sql: SqlQueryable,
  id: string,
  state: WebhookRecord['state'],
  reason: string | null,
): Promise<WebhookRecord | undefined> {
  const rows = await sql.query<WebhookRow>(
    `update passmint_webhooks set state = $2, state_reason = $3, updated_at = now() where id = $1 returning ${webhookColumns}`,
    [id, state, reason],
  );
  if (rows[0] !== undefined && state === 'disabled') {
    await sql.query(`update passmint_deliveries set status = 'cancelled' where webhook_id = $1 and status = 'pending'`, [id]);
  }
  return rows[0] === undefined ? undefined : toWebhook(rows[0]);
}

export async function setWebhookSecret(sql: SqlQueryable, id: string, secret: string): Promise<WebhookRecord | undefined> {
  const rows = await sql.query<WebhookRow>(
    `update passmint_webhooks set secret = $2, updated_at = now() where id = $1 returning ${webhookColumns}`,
    [id, secret],
  );
  return rows[0] === undefined ? undefined : toWebhook(rows[0]);
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
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

/** Deliveries with their attempts: of one event (`eventSeq`) or of one registration (`webhookId`, newest first). */
export async function listDeliveries(
  sql: SqlQueryable,
  filter: { readonly eventSeq: number } | { readonly webhookId: string; readonly before: number; readonly limit: number },
): Promise<DeliveryRecord[]> {
  const select = `select d.id, e.id as event_id, e.type as event_type, d.webhook_id, d.status, d.attempts, d.next_attempt_at,
                         d.last_status, d.last_error, d.delivered_at
                    from passmint_deliveries d join passmint_events e on e.seq = d.event_seq`;
  const rows =
    'eventSeq' in filter
      ? await sql.query<DeliveryRow>(`${select} where d.event_seq = $1 order by d.id`, [filter.eventSeq])
      : await sql.query<DeliveryRow>(`${select} where d.webhook_id = $1 and d.id < $2 order by d.id desc limit $3`, [
          filter.webhookId,
          filter.before,
          filter.limit,
        ]);
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

export async function listEvents(sql: SqlQueryable, before: number, limit: number): Promise<EventRecord[]> {
  return sql.query<EventRecord>('select seq, id, type, body from passmint_events where seq < $1 order by seq desc limit $2', [before, limit]);
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
