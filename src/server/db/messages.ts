// Messages to holders (`POST /v1/templates/{id}/messages`): one row per
// message with its job, the field it is written into, the passes it reaches
// (those matching when it was sent) and the job's keyset cursor over them.
// The Google side of each pass's copy is a queued row of
// passmint_google_messages (google-messages.ts), sent by the Google worker.
import type { JobState } from './jobs.js';
import type { SqlQueryable } from './sql.js';

/** A message as stored, with its job's progress. */
export interface MessageRecord {
  /** The queue's id (the history's cursor). */
  readonly seq: number;
  /** The API's id. */
  readonly id: string;
  readonly templateId: number;
  /** The job's queue id. */
  readonly jobSeq: number;
  readonly header: string;
  readonly body: string;
  /** The search filters it was sent with, as given (`values.NAME`, `serialNumber`, `updatedSince`). */
  readonly filter: Readonly<Record<string, string>>;
  readonly fieldKey: string;
  readonly valuePlaceholder: string;
  readonly labelPlaceholder: string | null;
  /** The last pass (by seq) it can reach: passes made after it was sent are not. */
  readonly maxSeq: number;
  /** The job's cursor: the last pass (by seq) done. */
  readonly lastSeq: number;
  /** Passes it reaches. */
  readonly passes: number;
  /** Of those, how many Google would notify when it was sent. */
  readonly googleNotify: number;
  readonly created: Date;
}

/** A message with its job's state and counts, as the history shows it. */
export interface MessageWithJob extends MessageRecord {
  readonly job: {
    readonly id: string;
    readonly state: JobState;
    readonly done: number;
    readonly updated: number;
    readonly unchanged: number;
    readonly failed: number;
  } | null;
}

interface MessageRow {
  id: number;
  public_id: string;
  template_id: number;
  job_id: number;
  header: string;
  body: string;
  filter: Record<string, string>;
  field_key: string;
  value_placeholder: string;
  label_placeholder: string | null;
  max_seq: number | string;
  last_seq: number | string;
  passes: number;
  google_notify: number;
  created_at: Date;
}

const columns = `m.id, m.public_id, m.template_id, m.job_id, m.header, m.body, m.filter, m.field_key, m.value_placeholder, m.label_placeholder,
  m.max_seq, m.last_seq, m.passes, m.google_notify, m.created_at`;

const toMessage = (row: MessageRow): MessageRecord => ({
  seq: Number(row.id),
  id: row.public_id,
  templateId: row.template_id,
  jobSeq: Number(row.job_id),
  header: row.header,
  body: row.body,
  filter: row.filter,
  fieldKey: row.field_key,
  valuePlaceholder: row.value_placeholder,
  labelPlaceholder: row.label_placeholder,
  maxSeq: Number(row.max_seq),
  lastSeq: Number(row.last_seq),
  passes: row.passes,
  googleNotify: row.google_notify,
  created: row.created_at,
});

/** A message to store, as {@link insertMessage} takes it. */
export interface NewMessage {
  readonly templateId: number;
  readonly jobSeq: number;
  readonly header: string;
  readonly body: string;
  readonly filter: Readonly<Record<string, string>>;
  readonly fieldKey: string;
  readonly valuePlaceholder: string;
  readonly labelPlaceholder: string | null;
  readonly maxSeq: number;
  readonly passes: number;
  readonly googleNotify: number;
}

/**
 * Stores a message (in the transaction that queues its job).
 *
 * @example
 * ```ts
 * const message = await insertMessage(tx, { templateId: 3, jobSeq, header: 'Pool', body: 'Closed on Monday', filter: {}, fieldKey: 'news',
 *   valuePlaceholder: 'news', labelPlaceholder: null, maxSeq: 120, passes: 120, googleNotify: 0 });
 * ```
 */
export async function insertMessage(sql: SqlQueryable, message: NewMessage): Promise<MessageRecord> {
  const rows = await sql.query<MessageRow>(
    `insert into passmint_messages as m (template_id, job_id, header, body, filter, field_key, value_placeholder, label_placeholder, max_seq, passes, google_notify)
     values ($1, $2, $3, $4, $5::json, $6, $7, $8, $9, $10, $11) returning ${columns}`,
    [
      message.templateId,
      message.jobSeq,
      message.header,
      message.body,
      JSON.stringify(message.filter),
      message.fieldKey,
      message.valuePlaceholder,
      message.labelPlaceholder,
      message.maxSeq,
      message.passes,
      message.googleNotify,
    ],
  );
  return toMessage(rows[0]!);
}

/**
 * The message a job sends, or `undefined`.
 *
 * @example
 * ```ts
 * const message = await messageOfJob(tx, job.id);
 * ```
 */
export async function messageOfJob(sql: SqlQueryable, jobSeq: number): Promise<MessageRecord | undefined> {
  const rows = await sql.query<MessageRow>(`select ${columns} from passmint_messages m where m.job_id = $1`, [jobSeq]);
  return rows[0] === undefined ? undefined : toMessage(rows[0]);
}

/**
 * Moves a message's cursor to the last pass of a batch (in the batch's transaction).
 *
 * @example
 * ```ts
 * await advanceMessage(tx, message.seq, 1200);
 * ```
 */
export async function advanceMessage(tx: SqlQueryable, seq: number, lastSeq: number): Promise<void> {
  await tx.query('update passmint_messages set last_seq = $2 where id = $1', [seq, lastSeq]);
}

/**
 * A page of a template's messages, newest first by default (keyset on the
 * message's seq), each with its job's state and counts (`null` once
 * retention removed the job).
 *
 * @example
 * ```ts
 * const items = await listMessages(db, 3, { limit: 50, direction: 'before', cursor: undefined });
 * ```
 */
export async function listMessages(
  sql: SqlQueryable,
  templateId: number,
  query: { readonly limit: number; readonly direction: 'after' | 'before'; readonly cursor: number | undefined },
): Promise<MessageWithJob[]> {
  const after = query.direction === 'after';
  const cursor = query.cursor ?? (after ? 0 : Number.MAX_SAFE_INTEGER);
  const rows = await sql.query<
    MessageRow & {
      job_public_id: string | null;
      job_state: JobState | null;
      job_done: number | null;
      job_updated: number | null;
      job_unchanged: number | null;
      job_failed: number | null;
    }
  >(
    `select ${columns}, j.public_id::text as job_public_id, j.state as job_state, j.done as job_done, j.updated_count as job_updated,
            j.unchanged_count as job_unchanged, j.failed_count as job_failed
       from passmint_messages m left join passmint_jobs j on j.id = m.job_id
      where m.template_id = $1 and m.id ${after ? '>' : '<'} $2::bigint order by m.id ${after ? 'asc' : 'desc'} limit $3`,
    [templateId, cursor, query.limit],
  );
  return rows.map((row) => ({
    ...toMessage(row),
    job:
      row.job_public_id === null
        ? null
        : {
            id: row.job_public_id,
            state: row.job_state!,
            done: row.job_done ?? 0,
            updated: row.job_updated ?? 0,
            unchanged: row.job_unchanged ?? 0,
            failed: row.job_failed ?? 0,
          },
  }));
}

/**
 * The newest pass's seq now: a message reaches the passes up to it.
 *
 * @example
 * ```ts
 * const maxSeq = await newestPassSeq(db);
 * ```
 */
export async function newestPassSeq(sql: SqlQueryable): Promise<number> {
  const rows = await sql.query<{ seq: number | string | null }>('select max(seq) as seq from passmint_passes');
  return Number(rows[0]?.seq ?? 0);
}

/**
 * How many of the passes a filter selects (its SQL conditions over
 * passmint_passes, from `filterSql`) have a Google object that had its three
 * notifying messages in the last 24 hours, counting messages still queued:
 * those a new message reaches as `TEXT` only. Read from the day's messages
 * (their indexes), not from every pass.
 *
 * @example
 * ```ts
 * const atLimit = await passesAtGoogleLimit(db, ['template_id = $1::int'], [3], 120, 3);
 * ```
 */
export async function passesAtGoogleLimit(
  sql: SqlQueryable,
  conditions: readonly string[],
  params: readonly unknown[],
  maxSeq: number,
  perDay: number,
): Promise<number> {
  const n = params.length;
  const rows = await sql.query<{ n: number }>(
    `select count(*)::int as n
       from (select m.object_id from (
               select object_id from passmint_google_messages where status = 'queued'
               union all
               select object_id from passmint_google_messages where status = 'sent' and sent_at > now() - interval '24 hours') m
             group by m.object_id having count(*) >= $${n + 2}) full_day
       join passmint_google_objects o on o.object_id = full_day.object_id
      where exists (select 1 from passmint_passes
                     where passmint_passes.pass_type_identifier = o.pass_type_identifier and passmint_passes.serial_number = o.serial_number
                       and ${[...conditions, `seq <= $${n + 1}::bigint`].join(' and ')})`,
    [...params, maxSeq, perDay],
  );
  return rows[0]?.n ?? 0;
}

/**
 * How many passes a filter's conditions select, up to `maxSeq`.
 *
 * @example
 * ```ts
 * const passes = await countPassesUpTo(db, ['template_id = $1::int'], [3], 120);
 * ```
 */
export async function countPassesUpTo(sql: SqlQueryable, conditions: readonly string[], params: readonly unknown[], maxSeq: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `select count(*)::int as n from passmint_passes where ${[...conditions, `seq <= $${params.length + 1}::bigint`].join(' and ')}`,
    [...params, maxSeq],
  );
  return rows[0]?.n ?? 0;
}
