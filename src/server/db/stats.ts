// The stats roll-ups (passmint_stats_hourly, passmint_template_stats), kept up with the events by
// passmint_console_roll (console-roll.ts). Reads cost the hours and templates asked for, never the events.
import type { SqlQueryable } from './sql.js';

/**
 * One template's hour: what happened in it, and the devices (Apple) and
 * saves (Google) holding its passes at its end (`null`: unchanged in it).
 *
 * @example
 * ```ts
 * const row: StatsHour = { templateId: 1, hour: new Date('2025-03-01T10:00:00Z'), passesMade: 3, downloads: 5, addedApple: 1, addedGoogle: 0, removedApple: 0, removedGoogle: 0, devicesApple: 4, devicesGoogle: null };
 * ```
 */
export interface StatsHour {
  readonly templateId: number;
  readonly hour: Date;
  readonly passesMade: number;
  readonly downloads: number;
  readonly addedApple: number;
  readonly addedGoogle: number;
  readonly removedApple: number;
  readonly removedGoogle: number;
  readonly devicesApple: number | null;
  readonly devicesGoogle: number | null;
}

interface HourRow {
  template_id: number;
  hour: Date;
  passes_made: number;
  downloads: number;
  added_apple: number;
  added_google: number;
  removed_apple: number;
  removed_google: number;
  devices_apple: string | number | null;
  devices_google: string | number | null;
}

const count = (value: string | number | null): number | null => (value === null ? null : Number(value));

/**
 * The hours in `[from, to)` of the templates given (`null`: every
 * template), oldest first: from the primary key (templates given) or the
 * index on the hour.
 *
 * @example
 * ```ts
 * const hours = await statsHours(db, [1], new Date('2025-03-01T00:00:00Z'), new Date('2025-03-02T00:00:00Z'));
 * ```
 */
export async function statsHours(sql: SqlQueryable, templateIds: readonly number[] | null, from: Date, to: Date): Promise<StatsHour[]> {
  const rows = await sql.query<HourRow>(
    `select template_id, hour, passes_made, downloads, added_apple, added_google, removed_apple, removed_google, devices_apple, devices_google
       from passmint_stats_hourly
      where hour >= $1 and hour < $2 ${templateIds === null ? '' : 'and template_id = any ($3::int[])'}
      order by hour, template_id`,
    templateIds === null ? [from, to] : [from, to, [...templateIds]],
  );
  return rows.map((row) => ({
    templateId: row.template_id,
    hour: row.hour,
    passesMade: row.passes_made,
    downloads: row.downloads,
    addedApple: row.added_apple,
    addedGoogle: row.added_google,
    removedApple: row.removed_apple,
    removedGoogle: row.removed_google,
    devicesApple: count(row.devices_apple),
    devicesGoogle: count(row.devices_google),
  }));
}

/**
 * Per template (given, or every one), the devices and saves holding its
 * passes at `at`: the last hour before it that changed them (one index
 * look-up per template).
 *
 * @example
 * ```ts
 * const before = await devicesAt(db, null, new Date('2025-03-01T00:00:00Z')); // Map { 1 => { apple: 4, google: 1 } }
 * ```
 */
export async function devicesAt(
  sql: SqlQueryable,
  templateIds: readonly number[] | null,
  at: Date,
): Promise<Map<number, { readonly apple: number; readonly google: number }>> {
  const rows = await sql.query<{ template_id: number; devices_apple: string | number; devices_google: string | number }>(
    `select t.template_id, d.devices_apple, d.devices_google
       from passmint_template_stats t
       cross join lateral (
         select h.devices_apple, h.devices_google from passmint_stats_hourly h
          where h.template_id = t.template_id and h.hour < $1 and h.devices_apple is not null
          order by h.hour desc limit 1) d
      ${templateIds === null ? '' : 'where t.template_id = any ($2::int[])'}`,
    templateIds === null ? [at] : [at, [...templateIds]],
  );
  return new Map(rows.map((row) => [row.template_id, { apple: Number(row.devices_apple), google: Number(row.devices_google) }]));
}

/**
 * One template as the overview lists it: its id, name, passes, and the devices and saves holding them now.
 *
 * @example
 * ```ts
 * const row: TemplateTotals = { id: 1, name: 'Members', passes: 120, devicesApple: 80, devicesGoogle: 12 };
 * ```
 */
export interface TemplateTotals {
  readonly id: number;
  readonly name: string;
  /** The template's pass type. */
  readonly passType: string;
  readonly passes: number;
  readonly devicesApple: number;
  readonly devicesGoogle: number;
}

/**
 * The templates (given, or every one; at most `limit`, by id) with their
 * totals now, read from the kept counts (never a count over the passes).
 *
 * @example
 * ```ts
 * const templates = await templateTotals(db, null, 500);
 * ```
 */
export async function templateTotals(sql: SqlQueryable, templateIds: readonly number[] | null, limit: number): Promise<TemplateTotals[]> {
  const rows = await sql.query<{
    id: number;
    name: string | null;
    pass_type: string | null;
    passes: string | number | null;
    devices_apple: string | number | null;
    devices_google: string | number | null;
  }>(
    `select t.id, t.template ->> 'name' as name, t.template ->> 'passType' as pass_type, s.passes, s.devices_apple, s.devices_google
       from passmint_templates t left join passmint_template_stats s on s.template_id = t.id
      ${templateIds === null ? '' : 'where t.id = any ($2::int[])'}
      order by t.id limit $1`,
    templateIds === null ? [limit] : [limit, [...templateIds]],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name ?? '',
    passType: row.pass_type ?? '',
    passes: Number(row.passes ?? 0),
    devicesApple: Number(row.devices_apple ?? 0),
    devicesGoogle: Number(row.devices_google ?? 0),
  }));
}
