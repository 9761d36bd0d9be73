// The console's rows (`node bench/console.js`, or the console section of `npm run bench`):
//
// - the stats query (GET /v1/stats, the route as the service answers it, in process, on PostgreSQL) on a
//   database holding 1,000,000 events against one holding 10,000 — the same template, 1,000 passes, the
//   events spread evenly over the last 30 days (downloads, with one in ten a save or removal per wallet),
//   written through the events table and counted by the service's roll-up (passmint_console_roll). Asked:
//   the 30 daily points of every template, and the 168 hourly points of the last week of one. Rounds
//   alternate the two databases; the ratio is the median of the rounds' ratios. Target ≤ 2×.
// - the console's initial JavaScript, gzipped (level 9): the scripts dist/console/index.html loads at
//   once (module scripts and module preloads), built first when dist/console is missing. Budget 150 KB.
//
// `node bench/console.js` prints the rows and replaces the console rows of bench/results.json.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleForNode } from './lib/bundle.js';
import { storedRow } from './lib/sections.js';
import { adminDatabaseUrl, withDatabase } from './lib/service.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const PASS_TYPE = 'pass.com.example.bench';
const PASSES = 1000;
const MINUTES = 30 * 24 * 60;
const BATCH = 50_000;

/** Fills a database (migrated by the service) with `events` events through the events table; resolves with the template's id. */
async function seed(server, sql, key, events) {
  const made = await server.fetch(
    new Request('http://bench/v1/templates', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench',
        formatVersion: 1,
        passType: PASS_TYPE,
        description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
        placeholder: ['n'],
      }),
    }),
  );
  const { id } = await made.json();
  await sql.query(
    `insert into passmint_passes (pass_type_identifier, serial_number, template_id, pass_values, pass)
     select $1, 'S-' || i, $2, '{}'::json, '{}'::json from generate_series(1, $3::int) i`,
    [PASS_TYPE, id, PASSES],
  );
  for (let start = 0; start < events; start += BATCH) {
    const count = Math.min(BATCH, events - start);
    // Event i happens i/events of the way through the last 30 days; one in ten is a save or a removal.
    await sql.query(
      `insert into passmint_events (seq, id, type, body, created_at)
       select $1::bigint + i, gen_random_uuid(), x.type,
              json_build_object('type', x.type, 'data', json_build_object('serialNumber', 'S-' || ((i * 7919) % $4::int + 1), 'passTypeIdentifier', $5::text,
                                'wallet', case when i % 4 < 2 then 'apple' else 'google' end))::text,
              now() - ($6::int - ($1::bigint + i) * $6::int / $3::bigint) * interval '1 minute'
         from generate_series(1, $2::int) i
         cross join lateral (select case when i % 20 in (0, 2) then 'registration.created' when i % 20 = 1 then 'registration.deleted'
                                         else 'pass.downloaded' end as type) x`,
      [start, count, events, PASSES, PASS_TYPE, MINUTES],
    );
  }
  await sql.query("update passmint_counters set value = $1 where name = 'event'", [events]);
  // Counted as the service's roll-up counts them (all at once here: the question is timed, not the counting).
  await sql.query('select passmint_console_roll(null, true)');
  await sql.query('vacuum analyze');
  return id;
}

/** The two questions the console's analytics page asks, each one request through the service's handler. */
function ask(server, key, templateId) {
  const get = async (path) => {
    const answer = await server.fetch(new Request(`http://bench${path}`, { headers: { authorization: `Bearer ${key}` } }));
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
    return answer.json();
  };
  return async () => {
    const daily = await get('/v1/stats');
    const hourly = await get(`/v1/stats?templateId=${templateId}&interval=hour&from=${new Date(Date.now() - 7 * 86_400_000).toISOString()}`);
    return daily.points.length + hourly.points.length;
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The stats rows: the query at 1,000,000 events against 10,000. */
async function benchStats({ small = 10_000, large = 1_000_000, rounds = 7, perRound = 20 } = {}) {
  // Inside the repository, so the bundle's imports of pg resolve from node_modules.
  const dir = join(root, 'bench/.cache', `console-${process.pid}`);
  try {
    await bundleForNode({ service: join(root, 'src/server/index.ts') }, dir);
    const { createServer } = await import(join(dir, 'service.js'));
    return await withDatabase(adminDatabaseUrl(), 'passmint_console_small', (smallUrl, pg) =>
      withDatabase(adminDatabaseUrl(), 'passmint_console_large', async (largeUrl) => {
        const sides = [];
        for (const [url, events] of [
          [smallUrl, small],
          [largeUrl, large],
        ]) {
          const server = await createServer({ databaseUrl: url, workers: false });
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          const sql = { query: async (text, params) => (await client.query(text, params)).rows };
          const seeded = performance.now();
          const templateId = await seed(server, sql, server.firstApiKey, events);
          const seedSeconds = (performance.now() - seeded) / 1000;
          const hours = (await sql.query('select count(*)::int as n from passmint_stats_hourly'))[0].n;
          await client.end();
          sides.push({ server, events, seedSeconds, hours, run: ask(server, server.firstApiKey, templateId) });
        }
        try {
          for (const side of sides) for (let warm = 0; warm < 5; warm++) await side.run();
          const ratios = [];
          const times = [[], []];
          for (let round = 0; round < rounds; round++) {
            const order = round % 2 === 0 ? [0, 1] : [1, 0];
            const took = [0, 0];
            for (const index of order) {
              const started = performance.now();
              for (let n = 0; n < perRound; n++) await sides[index].run();
              took[index] = (performance.now() - started) / perRound;
              times[index].push(took[index]);
            }
            ratios.push(took[1] / took[0]);
          }
          return {
            small: { events: sides[0].events, ms: median(times[0]), seedSeconds: sides[0].seedSeconds, hours: sides[0].hours },
            large: { events: sides[1].events, ms: median(times[1]), seedSeconds: sides[1].seedSeconds, hours: sides[1].hours },
            ratio: median(ratios),
          };
        } finally {
          for (const side of sides) await side.server.close();
        }
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The gzipped bytes of the scripts the console's index.html loads at once (building the console when it is not built). */
function initialJavaScript() {
  const dist = join(root, 'dist/console');
  if (!existsSync(join(dist, 'index.html'))) {
    const built = spawnSync(
      process.execPath,
      [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'console/vite.config.ts', '--logLevel', 'warn'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (built.status !== 0) throw new Error('the console did not build');
  }
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = new Set();
  for (const match of html.matchAll(/<script[^>]*\stype="module"[^>]*\ssrc="([^"]+)"/g)) scripts.add(match[1]);
  for (const match of html.matchAll(/<link[^>]*\srel="modulepreload"[^>]*\shref="([^"]+)"/g)) scripts.add(match[1]);
  let bytes = 0;
  for (const src of scripts) bytes += gzipSync(readFileSync(join(dist, src.replace(/^\/console\//, '').replace(/^\.\//, ''))), { level: 9 }).length;
  return { bytes, files: scripts.size };
}

/**
 * The console section's rows, as bench/run.js stores them.
 *
 * @param {{ small?: number, large?: number }} [options]
 */
export async function benchConsole(options = {}) {
  const rows = [];
  try {
    const stats = await benchStats(options);
    rows.push({
      name: `console: stats query (30 daily points of every template + 168 hourly of one), ${stats.large.events.toLocaleString('en')} events vs ${stats.small.events.toLocaleString('en')}`,
      ours: `${stats.large.ms.toFixed(2)} ms`,
      baseline: `${stats.small.ms.toFixed(2)} ms`,
      oursValue: stats.large.ms,
      baselineValue: stats.small.ms,
      ratio: stats.ratio,
      ratioText: `${stats.ratio.toFixed(2)}×`,
      target: '≤ 2×',
      pass: stats.ratio <= 2,
      detail: { small: stats.small, large: stats.large },
    });
  } catch (error) {
    rows.push(notMeasured(`console: stats query not measured (${error.message})`, '≤ 2×'));
  }
  try {
    const { bytes, files } = initialJavaScript();
    const budget = 150 * 1024;
    rows.push({
      name: `console: initial JavaScript (${files} files), min+gzip, vs budget`,
      ours: `${(bytes / 1024).toFixed(1)} KB`,
      baseline: `${(budget / 1024).toFixed(1)} KB budget`,
      oursValue: bytes,
      baselineValue: budget,
      ratio: bytes / budget,
      ratioText: `${(bytes / budget).toFixed(2)}×`,
      target: '≤ 1×',
      pass: bytes <= budget,
    });
  } catch (error) {
    rows.push(notMeasured(`console: initial JavaScript not measured (${error.message})`, '≤ 1×'));
  }
  return rows;
}

const notMeasured = (name, target) => ({
  name,
  ours: '—',
  baseline: '—',
  ratio: Number.NaN,
  ratioText: '—',
  target,
  pass: false,
  oursValue: Number.NaN,
  baselineValue: Number.NaN,
});

// `node bench/console.js [--small N] [--large N]`: the rows, printed, and written over the console rows of bench/results.json.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const number = (flag, fallback) => {
    const at = process.argv.indexOf(flag);
    return at === -1 ? fallback : Number(process.argv[at + 1]);
  };
  const rows = await benchConsole({ small: number('--small', 10_000), large: number('--large', 1_000_000) });
  for (const row of rows) console.log(`${row.name}: ${row.ours} vs ${row.baseline} = ${row.ratioText} (target ${row.target}) ${row.pass ? 'PASS' : 'FAIL'}`);
  const resultsPath = fileURLToPath(new URL('./results.json', import.meta.url));
  const results = JSON.parse(readFileSync(resultsPath, 'utf8'));
  const stored = rows.map((row) => ({ ...storedRow(row), ...(row.detail === undefined ? {} : { detail: row.detail }) }));
  results.rows = [...results.rows.filter((row) => !row.name.startsWith('console:')), ...stored];
  results.console = {
    command: `node bench/console.js${process.argv.slice(2).length > 0 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    date: new Date().toISOString(),
  };
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
}
