// Apple notifies a field's change through its `changeMessage`; Google has no
// such thing, only messages added to an object. The service turns one into
// the other: each field whose value changed since the pass Google last got,
// and that has a changeMessage, becomes one TEXT_AND_NOTIFY message.
import type { Field, Pass, PassStructure } from '../../types.js';
import type { SqlQueryable } from './sql.js';

/** Google shows at most this many notifying messages per object in 24 hours; further ones fail. */
export const GOOGLE_NOTIFICATIONS_PER_DAY = 3;

/** One message owed: its Google text and the field it came from. */
export interface ChangeMessage {
  readonly fieldKey: string;
  readonly header: string;
  readonly body: string;
}

const STYLES = ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard'] as const;
const AREAS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'] as const;

function fieldsOf(pass: Pass): Map<string, Field> {
  const fields = new Map<string, Field>();
  for (const style of STYLES) {
    const structure: PassStructure | undefined = pass[style];
    if (structure === undefined) continue;
    for (const area of AREAS) for (const field of structure[area] ?? []) fields.set(field.key, field);
  }
  return fields;
}

/**
 * The messages a change from `before` (the pass Google has) to `after` owes:
 * one per field of `after` with a `changeMessage` whose value differs (a
 * field that is new has no before, and notifies nothing, as on iPhone).
 * `%@` becomes the new value; the header is the field's label, else the
 * pass's organization.
 *
 * @example
 * ```ts
 * changeMessages(before, after); // [{ fieldKey: 'gate', header: 'Gate', body: 'Gate changed to B12' }]
 * ```
 */
export function changeMessages(before: Pass, after: Pass): ChangeMessage[] {
  const old = fieldsOf(before);
  const messages: ChangeMessage[] = [];
  for (const [key, field] of fieldsOf(after)) {
    const previous = old.get(key);
    if (field.changeMessage === undefined || previous === undefined || previous.value === field.value) continue;
    messages.push({
      fieldKey: key,
      header: field.label ?? after.organizationName,
      body: field.changeMessage.split('%@').join(String(field.value)),
    });
  }
  return messages;
}

/** How many notifying messages the object was sent in the last 24 hours. */
export async function notificationsToday(sql: SqlQueryable, objectId: string): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `select count(*)::int as n from passmint_google_messages
      where object_id = $1 and status = 'sent' and sent_at > now() - interval '24 hours'`,
    [objectId],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Whether a message with this id was recorded (sent, or over the limit).
 *
 * @example
 * ```ts
 * if (await messageRecorded(db, messageId)) continue;
 * ```
 */
export async function messageRecorded(sql: SqlQueryable, messageId: string): Promise<boolean> {
  const rows = await sql.query('select 1 from passmint_google_messages where message_id = $1', [messageId]);
  return rows.length > 0;
}

/**
 * Records a message as `sent` or `over-limit` (once per id).
 *
 * @example
 * ```ts
 * await recordMessage(db, messageId, objectId, { fieldKey: 'gate', header: 'Gate', body: 'Gate changed to B12' }, 'sent');
 * ```
 */
export async function recordMessage(
  sql: SqlQueryable,
  messageId: string,
  objectId: string,
  message: ChangeMessage,
  status: 'sent' | 'over-limit',
): Promise<void> {
  await sql.query(
    `insert into passmint_google_messages (message_id, object_id, header, body, status) values ($1, $2, $3, $4, $5)
         on conflict (message_id) do nothing`,
    [messageId, objectId, message.header, message.body, status],
  );
}

/**
 * Deletes at most `limit` messages older than `days` whole days (retention;
 * whole days, so the last 24 hours', which count against Google's three a
 * day, always stay); resolves to how many went.
 *
 * @example
 * ```ts
 * await deleteOldGoogleMessages(tx, 30, 1000);
 * ```
 */
export async function deleteOldGoogleMessages(sql: SqlQueryable, days: number, limit: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `with gone as (delete from passmint_google_messages where id in (
        select id from passmint_google_messages
         where sent_at < now() - $1 * interval '1 day'
         limit $2) returning 1) select count(*)::int as n from gone`,
    [days, limit],
  );
  return rows[0]?.n ?? 0;
}

/** A message to holders owed to one Google object (queued by the message job, sent by the Google worker). */
export interface HolderMessage {
  /** The row's id. */
  readonly id: number;
  /** The id Google gets (the same after a retry). */
  readonly messageId: string;
  readonly header: string;
  readonly body: string;
  readonly fieldKey: string;
}

/**
 * Queues messages to holders for Google objects (in the transaction of the
 * pass changes they go with); a message already queued is left as it is.
 *
 * @example
 * ```ts
 * await queueHolderMessages(tx, [{ messageId, objectId, header: 'Pool', body: 'Closed on Monday', fieldKey: 'news' }]);
 * ```
 */
export async function queueHolderMessages(
  tx: SqlQueryable,
  messages: readonly { messageId: string; objectId: string; header: string; body: string; fieldKey: string }[],
): Promise<void> {
  if (messages.length === 0) return;
  await tx.query(
    `insert into passmint_google_messages (message_id, object_id, header, body, status, field_key)
     select x.id, x.object, x.header, x.body, 'queued', x.field from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
       as x(id, object, header, body, field)
     on conflict (message_id) do nothing`,
    [
      messages.map((m) => m.messageId),
      messages.map((m) => m.objectId),
      messages.map((m) => m.header),
      messages.map((m) => m.body),
      messages.map((m) => m.fieldKey),
    ],
  );
}

/**
 * The messages to holders still owed to an object, oldest first.
 *
 * @example
 * ```ts
 * for (const message of await queuedHolderMessages(db, objectId)) …
 * ```
 */
export async function queuedHolderMessages(sql: SqlQueryable, objectId: string): Promise<HolderMessage[]> {
  return sql.query<HolderMessage>(
    `select id::int as id, message_id as "messageId", coalesce(header, '') as header, body, field_key as "fieldKey"
       from passmint_google_messages where object_id = $1 and status = 'queued' order by id limit 100`,
    [objectId],
  );
}

/**
 * The fields whose change a message to holders announces since `since`
 * (queued, or sent after it): the change message the field would owe
 * Google is that message, not a second one.
 *
 * @example
 * ```ts
 * const announced = await holderMessageFields(db, objectId, syncedAt);
 * ```
 */
export async function holderMessageFields(sql: SqlQueryable, objectId: string, since: Date): Promise<Set<string>> {
  const rows = await sql.query<{ field_key: string }>(
    `select distinct field_key from passmint_google_messages
      where object_id = $1 and field_key is not null and (status = 'queued' or sent_at >= $2)`,
    [objectId, since],
  );
  return new Set(rows.map((row) => row.field_key));
}

/**
 * Records a message to holders as sent: `sent` (it notified) or `text` (the three a day were used).
 *
 * @example
 * ```ts
 * await holderMessageSent(db, message.id, 'sent');
 * ```
 */
export async function holderMessageSent(sql: SqlQueryable, id: number, status: 'sent' | 'text'): Promise<void> {
  await sql.query(`update passmint_google_messages set status = $2, sent_at = now() where id = $1 and status = 'queued'`, [id, status]);
}
