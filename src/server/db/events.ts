// Events as the API shows them (their deliveries and attempts: deliveries.ts).
import { keysetPage, type PageQuery } from '../http/paging.js';
import type { SqlQueryable } from './sql.js';

/** An event as stored: its exact JSON and its place in the outbox. */
export interface EventRecord {
  readonly seq: number;
  readonly id: string;
  readonly type: string;
  readonly body: string;
}

/** An event by its id, or `undefined`. */
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
 * Deletes, oldest first, at most `limit` events older than `days` whole days
 * that no delivery refers to any more (retention deletes their deliveries
 * first); resolves to how many went. The candidates are the oldest `limit`
 * old events with no pending delivery — the ones whose attempts and
 * deliveries retention just deleted — read from the index on `created_at`,
 * and each is then looked up among the deliveries: "no delivery at all"
 * asked of every old event at once is a hash join over the whole
 * deliveries table (a second at a million).
 *
 * @example
 * ```ts
 * await deleteOldEvents(tx, 30, 1000); // 0 … 1000
 * ```
 */
export async function deleteOldEvents(sql: SqlQueryable, days: number, limit: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `with gone as (delete from passmint_events where seq in (
        select e.seq from passmint_events e
         where e.created_at < now() - $1 * interval '1 day'
           -- Counted by the console's roll-up (it is days ahead of retention, unless it stopped).
           and e.seq <= (select value from passmint_counters where name = 'console')
           and not exists (select 1 from passmint_deliveries p where p.event_seq = e.seq and p.status = 'pending')
         order by e.created_at limit $2)
        and not exists (select 1 from passmint_deliveries d where d.event_seq = passmint_events.seq)
       returning 1) select count(*)::int as n from gone`,
    [days, limit],
  );
  return rows[0]?.n ?? 0;
}
