// GET /v1/stats adds the hourly rows up in the database (one row per interval whatever the number of
// templates). Checked against the plain reading of the rows: counters summed per interval; each template's
// devices carried from its last known count, before the range too.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { devicesAt, statsSeries } from '../../src/server/db/stats.js';
import { ENGINES, type TestDatabase } from './databases.js';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 2, 1);

interface Row {
  template: number;
  hour: number;
  made: number;
  downloads: number;
  added: number;
  removed: number;
  devices: number | null;
  saves: number | null;
}

/** A fixed pseudo-random set of hourly rows: 3 templates over 6 days, about a third of the hours each. */
function rows(): Row[] {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const out: Row[] = [];
  for (const template of [1, 2, 3]) {
    for (let h = 0; h < 6 * 24; h++) {
      if (next(3) !== 0) continue;
      const changed = next(2) === 0;
      out.push({
        template,
        hour: START + h * HOUR,
        made: next(5),
        downloads: next(9),
        added: next(3),
        removed: next(2),
        devices: changed ? next(50) : null,
        saves: changed ? next(20) : null,
      });
    }
  }
  return out;
}

/** The plain reading: per interval, the sums, and the devices at its end (each template's last count so far). */
function expected(all: readonly Row[], templates: readonly number[], from: number, to: number, step: number) {
  const held = new Map<number, { apple: number; google: number }>();
  const points = [];
  const mine = all.filter((row) => templates.includes(row.template)).sort((a, b) => a.hour - b.hour);
  for (const row of mine.filter((row) => row.hour < from && row.devices !== null)) held.set(row.template, { apple: row.devices!, google: row.saves! });
  for (let start = from; start < to; start += step) {
    const inside = mine.filter((row) => row.hour >= start && row.hour < start + step);
    for (const row of inside) if (row.devices !== null) held.set(row.template, { apple: row.devices, google: row.saves! });
    const total = (pick: (row: Row) => number) => inside.reduce((sum, row) => sum + pick(row), 0);
    points.push({
      start,
      made: total((row) => row.made),
      downloads: total((row) => row.downloads),
      added: total((row) => row.added),
      removed: total((row) => row.removed),
      apple: [...held.values()].reduce((sum, value) => sum + value.apple, 0),
      google: [...held.values()].reduce((sum, value) => sum + value.google, 0),
    });
  }
  return points;
}

for (const engine of ENGINES) {
  describe(`stats series on ${engine.name}`, () => {
    let database: TestDatabase;
    const all = rows();

    beforeAll(async () => {
      database = await engine.open();
      for (const template of [1, 2, 3]) await database.db.query('insert into passmint_template_stats (template_id) values ($1)', [template]);
      await database.db.query(
        `insert into passmint_stats_hourly (template_id, hour, passes_made, downloads, added_apple, added_google, removed_apple, removed_google, devices_apple, devices_google)
         select * from unnest($1::int[], $2::timestamptz[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::bigint[], $10::bigint[])`,
        [
          all.map((row) => row.template),
          all.map((row) => new Date(row.hour)),
          all.map((row) => row.made),
          all.map((row) => row.downloads),
          all.map((row) => row.added),
          all.map(() => 0),
          all.map((row) => row.removed),
          all.map(() => 0),
          all.map((row) => row.devices),
          all.map((row) => row.saves),
        ],
      );
    });

    afterAll(async () => {
      await database?.dispose();
    });

    const cases: [string, number[] | null, number, number, 'day' | 'hour'][] = [
      ['every template by day, from the second day', null, START + 24 * HOUR, START + 6 * 24 * HOUR, 'day'],
      ['one template by hour, mid-range', [2], START + 30 * HOUR, START + 80 * HOUR, 'hour'],
      ['two templates by day, beyond the rows', [1, 3], START - 2 * 24 * HOUR, START + 9 * 24 * HOUR, 'day'],
    ];
    test.each(cases)('%s', async (_name, templates, from, to, interval) => {
      const step = interval === 'day' ? 24 * HOUR : HOUR;
      const buckets = await statsSeries(database.db, templates, new Date(from), new Date(to), interval);
      const before = await devicesAt(database.db, templates, new Date(from));
      let apple = [...before.values()].reduce((sum, value) => sum + value.apple, 0);
      let google = [...before.values()].reduce((sum, value) => sum + value.google, 0);
      const got = [];
      for (let start = from; start < to; start += step) {
        const bucket = buckets.find((candidate) => candidate.start.getTime() === start);
        apple += bucket?.devicesAppleChange ?? 0;
        google += bucket?.devicesGoogleChange ?? 0;
        got.push({
          start,
          made: bucket?.passesMade ?? 0,
          downloads: bucket?.downloads ?? 0,
          added: bucket?.addedApple ?? 0,
          removed: bucket?.removedApple ?? 0,
          apple,
          google,
        });
      }
      expect(buckets.length).toBeLessThanOrEqual((to - from) / step);
      expect(got).toEqual(expected(all, templates ?? [1, 2, 3], from, to, step));
    });
  });
}
