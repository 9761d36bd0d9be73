// Each pass's timeline (passmint_timeline): most entries are written by the triggers of the console migrations in schema.ts
// in the transactions that make them (events, deliveries, pushes, Google syncs), and trimmed by the roll-up
// (console-roll.ts); Wallet's fetches, which change nothing, are written here.
import type { PageQuery } from '../http/paging.js';
import type { SqlQueryable } from './sql.js';

/**
 * What a timeline entry is about: `created`, `updated` (with the version),
 * `downloaded`, `pushed` (APNs), `fetched` (Wallet), `google-synced`,
 * `delivered` (a webhook delivery that ended), `voided`, `expired`,
 * `message`, `added` and `removed` (a wallet saved or removed the pass).
 */
export type TimelineKind =
  | 'created'
  | 'updated'
  | 'downloaded'
  | 'pushed'
  | 'fetched'
  | 'google-synced'
  | 'delivered'
  | 'voided'
  | 'expired'
  | 'message'
  | 'added'
  | 'removed';

/**
 * One entry of a pass's timeline as stored: its number (the page cursor),
 * when, what, and the details of its kind.
 *
 * @example
 * ```ts
 * const entry: TimelineRecord = { id: 7, at: new Date(), kind: 'fetched', detail: { status: 304 } };
 * ```
 */
export interface TimelineRecord {
  readonly id: number;
  readonly at: Date;
  readonly kind: TimelineKind;
  readonly detail: Readonly<Record<string, unknown>>;
}

/**
 * A page of a pass's timeline, newest first unless read `after` a cursor
 * (from the index on pass and id).
 *
 * @example
 * ```ts
 * const entries = await listTimeline(db, 'pass.com.example', 'M-1', { limit: 50, direction: 'before', cursor: undefined });
 * ```
 */
export async function listTimeline(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string, query: PageQuery): Promise<TimelineRecord[]> {
  const after = query.direction === 'after';
  const cursor = query.cursor ?? (after ? 0 : Number.MAX_SAFE_INTEGER);
  const rows = await sql.query<{ id: string | number; at: Date; kind: TimelineKind; detail: Record<string, unknown> }>(
    `select id, at, kind, detail from passmint_timeline
      where pass_type_identifier = $1 and serial_number = $2 and id ${after ? '>' : '<'} $3::bigint
      order by id ${after ? 'asc' : 'desc'} limit $4`,
    [passTypeIdentifier, serialNumber, cursor, query.limit],
  );
  return rows.map((row) => ({ id: Number(row.id), at: row.at, kind: row.kind, detail: row.detail }));
}

/**
 * An entry to add to a pass's timeline from outside a trigger (Wallet's fetches); its time is the database's clock when it is written.
 *
 * @example
 * ```ts
 * const entry: NewTimelineEntry = { passTypeIdentifier: 'pass.com.example', serialNumber: 'M-1', kind: 'fetched', detail: { status: 200 } };
 * ```
 */
export interface NewTimelineEntry {
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
  readonly kind: TimelineKind;
  readonly detail: Readonly<Record<string, unknown>>;
}

/**
 * Adds entries in one statement, then trims the timelines of their passes
 * to about the newest 100 entries of the kinds anyone holding a pass can
 * cause (each trim reads at most 100 entries of the index).
 *
 * @example
 * ```ts
 * await addTimelineEntries(db, [{ passTypeIdentifier: 'pass.com.example', serialNumber: 'M-1', kind: 'fetched', detail: { status: 304 } }]);
 * ```
 */
export async function addTimelineEntries(sql: SqlQueryable, entries: readonly NewTimelineEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await sql.query(
    `insert into passmint_timeline (pass_type_identifier, serial_number, kind, detail)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::json[])`,
    [
      entries.map((entry) => entry.passTypeIdentifier),
      entries.map((entry) => entry.serialNumber),
      entries.map((entry) => entry.kind),
      entries.map((entry) => JSON.stringify(entry.detail)),
    ],
  );
  const passes = [...new Map(entries.map((entry) => [`${entry.passTypeIdentifier}\u0000${entry.serialNumber}`, entry])).values()];
  await sql.query('select passmint_timeline_trim(x.pt, x.sn) from unnest($1::text[], $2::text[]) as x(pt, sn)', [
    passes.map((entry) => entry.passTypeIdentifier),
    passes.map((entry) => entry.serialNumber),
  ]);
}
