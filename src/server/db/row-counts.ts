// Rows by state, counted as they change: statement triggers on the queue
// tables (the schema's passmint_count_rows) add to this backend's row of
// passmint_row_counts in the transaction that changes them, so reading a
// count costs the few rows of this table, not a count(*) over the table.
import type { SqlQueryable } from './sql.js';

/**
 * The kept counts by name (`deliveries:pending`, `pushes:sent`,
 * `google:owed`, …; a name never counted is absent). One statement: the
 * rows of backends that are gone (no `pg_stat_activity` entry) are folded
 * into shard 0 as it reads, so the table holds one row per name and live
 * connection, plus one; the sum it returns is read before the fold, and is
 * the same either way.
 *
 * What the counting costs, measured by `node bench/scale.js` (`scale.counting`
 * in bench/results.json, the trigger's own time in EXPLAIN ANALYZE): about
 * 40–100 µs of PostgreSQL time on a statement that queues or records
 * deliveries, whatever the table holds, on a 2-core machine shared with
 * other work; a claim or a lease extended changes no state and writes
 * nothing. Reading the counts costs a few dozen rows.
 *
 * @example
 * ```ts
 * const counts = await readRowCounts(db);
 * counts.get('deliveries:pending') ?? 0; // 3
 * ```
 */
export async function readRowCounts(sql: SqlQueryable): Promise<Map<string, number>> {
  const rows = await sql.query<{ name: string; n: number }>(
    `with gone as (
       delete from passmint_row_counts c
        where c.shard <> 0 and not exists (select 1 from pg_stat_activity a where a.pid = c.shard)
       returning c.name, c.n),
     folded as (
       insert into passmint_row_counts as c (name, shard, n)
       select name, 0, sum(n) from gone group by name order by name
       on conflict (name, shard) do update set n = c.n + excluded.n)
     select name, sum(n)::float8 as n from passmint_row_counts group by name`,
  );
  return new Map(rows.map((row) => [row.name, row.n]));
}
