// The console's counts (passmint_template_stats, passmint_stats_hourly, passmint_pass_wallets) brought up to
// date with the events: passmint_console_roll in schema.ts, over the events by number from a cursor.
import type { SqlQueryable } from './sql.js';

/**
 * Counts at most `maxEvents` of the events not counted yet, oldest first,
 * in one transaction with the cursor. With `wait`, waits for a roll-up under
 * way elsewhere and then counts what is left; without, gives up at once.
 * Resolves to how many events it counted (0: none were waiting), or `-1`
 * when another transaction was counting and `wait` is false.
 *
 * @example
 * ```ts
 * await rollConsole(db, 5000, true); // before reading the counts
 * ```
 */
export async function rollConsole(sql: SqlQueryable, maxEvents: number, wait: boolean): Promise<number> {
  const rows = await sql.query<{ n: number }>('select passmint_console_roll($1, $2) as n', [maxEvents, wait]);
  return rows[0]?.n ?? 0;
}

/**
 * How many events the console's counts are behind (one look-up each of two
 * rows: the event counter and the cursor).
 *
 * @example
 * ```ts
 * const behind = await consoleBacklog(db); // 0 when every event is counted
 * ```
 */
export async function consoleBacklog(sql: SqlQueryable): Promise<number> {
  const rows = await sql.query<{ n: string | number }>(
    "select (select value from passmint_counters where name = 'event') - (select value from passmint_counters where name = 'console') as n",
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Before reading the counts: counts at most `maxEvents` waiting events,
 * when any wait (a read with nothing waiting takes no lock and writes
 * nothing, so readers never queue behind each other).
 *
 * @example
 * ```ts
 * await catchUpConsole(db, 5000);
 * ```
 */
export async function catchUpConsole(sql: SqlQueryable, maxEvents: number): Promise<void> {
  if ((await consoleBacklog(sql)) > 0) await rollConsole(sql, maxEvents, true);
}
