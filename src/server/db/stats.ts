// The stats roll-ups (passmint_stats_hourly, passmint_template_stats), kept up with the events by
// passmint_console_roll (console-roll.ts). Reads cost the hours and templates asked for, never the events.
import type { SqlQueryable } from './sql.js';

/**
 * One interval of a series, every template asked for added up: what
 * happened in it, and how the devices (Apple) and saves (Google) holding
 * their passes changed over it (at its end against its start).
 *
 * @example
 * ```ts
 * const bucket: StatsBucket = { start: new Date('2025-03-01T00:00:00Z'), passesMade: 3, downloads: 5, addedApple: 1, addedGoogle: 0, removedApple: 0, removedGoogle: 0, devicesAppleChange: 1, devicesGoogleChange: 0 };
 * ```
 */
export interface StatsBucket {
  readonly start: Date;
  readonly passesMade: number;
  readonly downloads: number;
  readonly addedApple: number;
  readonly addedGoogle: number;
  readonly removedApple: number;
  readonly removedGoogle: number;
  readonly devicesAppleChange: number;
  readonly devicesGoogleChange: number;
}

/**
 * The intervals of `step` from `from` to `to` that something happened in,
 * for the templates given (`null`: every template), oldest first, added up
 * in the database: the answer has one row per interval, however many
 * templates there are. The devices' change per interval is each template's
 * last count in it against its last before (from the same hourly rows).
 *
 * @example
 * ```ts
 * const days = await statsSeries(db, null, new Date('2025-03-01T00:00:00Z'), new Date('2025-03-31T00:00:00Z'), 'day');
 * ```
 */
export async function statsSeries(
  sql: SqlQueryable,
  templateIds: readonly number[] | null,
  from: Date,
  to: Date,
  step: 'day' | 'hour',
): Promise<StatsBucket[]> {
  const rows = await sql.query<{
    bucket: Date;
    made: string | number | null;
    downloads: string | number | null;
    added_apple: string | number | null;
    added_google: string | number | null;
    removed_apple: string | number | null;
    removed_google: string | number | null;
    change_apple: string | number | null;
    change_google: string | number | null;
  }>(
    `with h as (
       select date_bin($3::interval, hour, $1) as bucket, template_id, hour, passes_made, downloads, added_apple, added_google,
              removed_apple, removed_google, devices_apple, devices_google
         from passmint_stats_hourly
        where hour >= $1 and hour < $2 ${templateIds === null ? '' : 'and template_id = any ($4::int[])'}),
     counted as (
       select bucket, sum(passes_made) as made, sum(downloads) as downloads, sum(added_apple) as added_apple, sum(added_google) as added_google,
              sum(removed_apple) as removed_apple, sum(removed_google) as removed_google
         from h group by bucket),
     last as (
       select distinct on (template_id, bucket) template_id, bucket, devices_apple as a, devices_google as g
         from h where devices_apple is not null order by template_id, bucket, hour desc),
     before as (
       select b.template_id, b.devices_apple as a, b.devices_google as g
         from (select distinct template_id from last) t
         cross join lateral (
           select x.template_id, x.devices_apple, x.devices_google from passmint_stats_hourly x
            where x.template_id = t.template_id and x.hour < $1 and x.devices_apple is not null
            order by x.hour desc limit 1) b),
     deltas as (
       select l.bucket, l.a - coalesce(lag(l.a) over w, b.a, 0) as da, l.g - coalesce(lag(l.g) over w, b.g, 0) as dg
         from last l left join before b on b.template_id = l.template_id
       window w as (partition by l.template_id order by l.bucket)),
     changes as (select bucket, sum(da) as change_apple, sum(dg) as change_google from deltas group by bucket)
     select coalesce(c.bucket, d.bucket) as bucket, c.made, c.downloads, c.added_apple, c.added_google, c.removed_apple, c.removed_google,
            d.change_apple, d.change_google
       from counted c full join changes d on d.bucket = c.bucket
      order by 1`,
    templateIds === null ? [from, to, `1 ${step}`] : [from, to, `1 ${step}`, [...templateIds]],
  );
  const n = (value: string | number | null): number => Number(value ?? 0);
  return rows.map((row) => ({
    start: row.bucket,
    passesMade: n(row.made),
    downloads: n(row.downloads),
    addedApple: n(row.added_apple),
    addedGoogle: n(row.added_google),
    removedApple: n(row.removed_apple),
    removedGoogle: n(row.removed_google),
    devicesAppleChange: n(row.change_apple),
    devicesGoogleChange: n(row.change_google),
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
