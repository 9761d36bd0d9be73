// The scale test (issue 28): the same routes, and the statements of the
// workers, a /metrics scrape and a start, on a database of 10,000 passes and
// on one of 1,000,000 (each a fresh PostgreSQL database), side by side: each
// within 1.5× — cost flat with the data. The plans of the statements on the
// large database (EXPLAIN (ANALYZE, BUFFERS)) are printed, and the disk a pass,
// an event, a delivery and an attempt take.
//
//   node bench/scale.js [--passes 1000000] [--small 10000] [--rounds 5] [--no-write] [--quiet]
//
// Each database is set up through the API of `passmint serve` (the CLI, built
// from this tree, signing): two templates with files, a webhook registration
// on a receiver in this process, one pass made by the service. The rest is made
// with SQL as the service writes it, copied from that pass and its event: N
// passes (one template holds 100 of them, spread through the others), an
// event per pass (pass.created, spread over the last 60 days), a delivery per
// event (delivered) with its attempt, a Google sync job per pass (done); then
// the counts the schema keeps, VACUUM and ANALYZE (what autovacuum, with the
// settings the schema gives the tables, does on a server where it runs).
//
// Then a `passmint serve` process starts on each (timed: the start's
// statements, among them the release of orphaned claims), and in rounds that
// alternate the two: per route, requests one after another (the median of
// each round; the ratio of the two medians in a round, the median over
// rounds); per statement, the repository's own function on a connection of
// this process (writes rolled back). Pass g holds the value name = 'N' + g,
// so a search by value finds one pass among them all (its plan is printed
// with the others). The service runs with --retention-days 0 (the rows are
// made up to 60 days back). Written into bench/results.json: rows
// `scale: …` (the section of `npm run bench`) and `scale` (sizes, build time,
// disk, plans, what keeping the counts costs).

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PASS_TYPE, template } from './lib/bench-template.js';
import { bundleForNode } from './lib/bundle.js';
import { median } from './lib/measure.js';
import { mergeRows, storedRow } from './lib/sections.js';
import { environment } from './load.js';
import { writePki, noisePng, utf16Strings } from './lib/pki.js';
import { startReceiver as startBenchReceiver } from './lib/receiver.js';
import { call, explain, queryable, serve as serveCli } from './lib/service.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const SMALL_TEMPLATE_PASSES = 100;
const CHUNK = 250_000;
const TARGET = 1.5;

// --- Plumbing ---------------------------------------------------------------------------

/** A receiver of webhook deliveries that notes when each pass's event arrived. */
async function startReceiver() {
  const arrived = new Map();
  const waiting = new Map();
  const receiver = await startBenchReceiver({
    onEvent: (event) => {
      const serial = event.data?.serialNumber;
      if (serial !== undefined) {
        arrived.set(serial, performance.now());
        waiting.get(serial)?.();
      }
    },
  });
  return {
    url: receiver.url,
    /** Resolves when the event of the pass `serial` has arrived. */
    arrival: (serial, limitMs = 30_000) =>
      arrived.has(serial)
        ? Promise.resolve(arrived.get(serial))
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no delivery of ${serial} within ${limitMs / 1000} s`)), limitMs);
            waiting.set(serial, () => {
              clearTimeout(timer);
              waiting.delete(serial);
              resolve(arrived.get(serial));
            });
          }),
    close: receiver.close,
  };
}

/** Spawns `passmint serve` as the scale test runs it: retention off (it would delete the rows made 60 days back). */
const serve = (cli, dir, databaseUrl, name) => serveCli(cli, dir, databaseUrl, name, ['--retention-days', '0']);

// --- The build ---------------------------------------------------------------------------

/**
 * Sets a database up through the API, then fills it with SQL to `passes`
 * passes (see the file's head). Resolves with what the measurements need.
 */
async function build({ pg, cli, dir, adminUrl, passes, receiver, log }) {
  const name = `passmint_scale_${passes}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.href;
  const drop = async () => {
    const again = new pg.Client({ connectionString: adminUrl });
    await again.connect();
    await again.query(`drop database if exists ${name} with (force)`);
    await again.end();
  };

  // Through the API: templates with files, a verified webhook registration, one pass.
  const first = await serve(cli, dir, databaseUrl, `setup-${passes}`);
  const agent = new Agent({ keepAlive: true });
  const auth = { authorization: `Bearer ${first.key}`, 'content-type': 'application/json' };
  const api = async (method, path, body, headers = auth) => {
    const answer = await call(agent, first.base, { method, path, headers, body });
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
    return answer.body.length > 0 && answer.body[0] === 0x7b ? JSON.parse(answer.body.toString('utf8')) : answer.body;
  };
  const files = {
    'icon.png': noisePng(29, 29),
    'icon@2x.png': noisePng(58, 58),
    'logo.png': noisePng(160, 50, false),
    'de.lproj/pass.strings': utf16Strings([['Member', 'Mitglied']]),
  };
  const templates = [];
  for (let index = 0; index < 2; index++) {
    const { id } = await api('POST', '/v1/templates', JSON.stringify({ ...template, name: index === 0 ? 'Large' : 'Small' }));
    for (const [path, bytes] of Object.entries(files)) await api('PUT', `/v1/templates/${id}/files/${path}`, bytes, { authorization: auth.authorization });
    templates.push(id);
  }
  const [large, small] = templates;
  const webhook = await api('POST', '/v1/webhooks', JSON.stringify({ url: `${receiver.url}/scale-${passes}` }));
  if (webhook.state !== 'enabled') throw new Error('the scale test webhook registration was not verified');
  const made = await api('POST', `/v1/templates/${large}/passes`, JSON.stringify({ values: { club: 'Chess', name: 'Ada', level: 'gold' } }));
  await receiver.arrival(made.serialNumber);
  await first.stop();
  agent.destroy();

  // With SQL, as the service writes them.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  const [row] = (
    await client.query('select serial_number, pass::text as pass, pass_values::text as pass_values from passmint_passes where serial_number = $1', [
      made.serialNumber,
    ])
  ).rows;
  const token = JSON.parse(row.pass).authenticationToken;
  const [event] = (await client.query(`select seq, id::text as id, body from passmint_events where type = 'pass.created' order by seq desc limit 1`)).rows;
  const [{ seq: eventBase }] = (await client.query(`select value::int as seq from passmint_counters where name = 'event'`)).rows;
  // Triggers and foreign-key checks off for the bulk rows (the counts are filled as the migration fills them).
  await client.query('set session_replication_role = replica');
  const step = Math.floor(passes / SMALL_TEMPLATE_PASSES);
  const spread = `(interval '60 days' * (${passes} - g) / ${passes})`;
  for (let from = 1; from <= passes; from += CHUNK) {
    const to = Math.min(passes, from + CHUNK - 1);
    await client.query(
      `insert into passmint_passes (pass_type_identifier, serial_number, template_id, pass_values, pass, created_at, updated_at)
       select $1, 'S' || g, case when g % $5 = 0 then $3::int else $4::int end, replace($6, '"Ada"', '"N' || g || '"')::json,
              replace(replace($2, $7, 'S' || g), $8, md5('t' || g))::json, now() - ${spread}, now() - ${spread}
         from generate_series($9::int, $10::int) g`,
      [PASS_TYPE, row.pass, small, large, step, row.pass_values, row.serial_number, token, from, to],
    );
    await client.query(
      `insert into passmint_events (seq, id, type, body, created_at)
       select $1::int + g, x.id, 'pass.created', replace(replace($2, $3, 'S' || g), $4, x.id::text), now() - ${spread}
         from generate_series($5::int, $6::int) g cross join lateral (select gen_random_uuid() as id, g as k) x`,
      [eventBase, event.body, row.serial_number, event.id, from, to],
    );
    await client.query(
      `insert into passmint_deliveries (event_seq, webhook_id, status, attempts, next_attempt_at, first_attempt_at, last_status, delivered_at)
       select $1::int + g, $2::uuid, 'delivered', 1, now() - ${spread}, now() - ${spread}, 200, now() - ${spread}
         from generate_series($3::int, $4::int) g`,
      [eventBase, webhook.id, from, to],
    );
    await client.query(
      `insert into passmint_attempts (delivery_id, attempted_at, outcome, status, duration_ms)
       select d.id, d.first_attempt_at, 'received', 200, 12 from passmint_deliveries d
        where d.event_seq between $1::int + $2::int and $1::int + $3::int`,
      [eventBase, from, to],
    );
    await client.query(
      `insert into passmint_google_jobs (kind, pass_type_identifier, serial_number, wanted, done)
       select 'object', $1, 'S' || g, 1, 1 from generate_series($2::int, $3::int) g`,
      [PASS_TYPE, from, to],
    );
    log(
      `  ${passes.toLocaleString('en')}: ${to.toLocaleString('en')} passes, events, deliveries, attempts (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  await client.query('set session_replication_role = default');
  await client.query(`update passmint_counters set value = $1 where name = 'event'`, [eventBase + passes]);
  await client.query(`select setval(pg_get_serial_sequence('passmint_passes', 'seq'), (select max(seq) from passmint_passes))`);
  // The counts as the migration fills them (the bulk rows went past the triggers).
  await client.query('delete from passmint_row_counts');
  await client.query(`insert into passmint_row_counts (name, shard, n)
    select 'deliveries:' || status, 0, count(*) from passmint_deliveries group by status
    union all select 'pushes:' || status, 0, count(*) from passmint_pushes group by status
    union all select 'google:owed', 0, count(*) from passmint_google_jobs where wanted > done having count(*) > 0`);
  await client.query('vacuum (analyze)');
  const buildSeconds = (performance.now() - started) / 1000;

  const [{ last }] = (await client.query('select max(seq)::int as last from passmint_passes where template_id = $1', [small])).rows;
  const [{ middle }] = (await client.query('select (min(seq) + (max(seq) - min(seq)) / 2)::int as middle from passmint_events')).rows;
  const disk = {};
  for (const [key, table] of [
    ['pass', 'passmint_passes'],
    ['event', 'passmint_events'],
    ['delivery', 'passmint_deliveries'],
    ['attempt', 'passmint_attempts'],
    ['googleJob', 'passmint_google_jobs'],
  ]) {
    const [sizes] = (
      await client.query(
        `select pg_total_relation_size($1::regclass)::float8 as total, pg_relation_size($1::regclass)::float8 as heap,
                pg_indexes_size($1::regclass)::float8 as indexes, (select count(*) from ${table})::float8 as n`,
        [table],
      )
    ).rows;
    disk[key] = {
      table,
      rows: sizes.n,
      bytesPerRow: Math.round(sizes.total / sizes.n),
      heapPerRow: Math.round(sizes.heap / sizes.n),
      indexesPerRow: Math.round(sizes.indexes / sizes.n),
      totalBytes: sizes.total,
    };
  }
  await client.end();
  return { databaseUrl, drop, key: first.key, large, small, webhook: webhook.id, lastSmallSeq: last, middleEvent: middle, buildSeconds, disk };
}

// --- The measurements ----------------------------------------------------------------------

/** The routes: each a request (or a few) per sample, one after another; `sample` resolves to the ms it took. */
function routes(side, agent, receiver) {
  const auth = { authorization: `Bearer ${side.key}`, 'content-type': 'application/json' };
  const passPath = (serial) => `/v1/passes/${PASS_TYPE}/${encodeURIComponent(serial)}`;
  const random = () => 1 + Math.floor(Math.random() * side.passes);
  const timed = async (request, expect = (status) => status >= 200 && status < 300) => {
    const at = performance.now();
    const answer = await call(agent, side.base, request);
    const ms = performance.now() - at;
    if (!expect(answer.status))
      throw new Error(`${request.method ?? 'GET'} ${request.path} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`);
    return ms;
  };
  let made = 0;
  const changed = new Set();
  const searchable = () => {
    for (;;) {
      const g = searchablePass(side);
      if (!changed.has(g)) return g;
    }
  };
  return [
    { key: 'get', name: 'GET a pass (/v1/passes/{type}/{serial})', sample: () => timed({ path: passPath(`S${random()}`), headers: auth }) },
    {
      key: 'create',
      name: 'create a pass (POST /v1/templates/{id}/passes)',
      sample: () =>
        timed({
          method: 'POST',
          path: `/v1/templates/${side.large}/passes`,
          headers: auth,
          body: JSON.stringify({ values: { club: 'Chess', name: 'Bo', level: 'gold' } }),
        }),
    },
    {
      key: 'update',
      name: "update a pass's values (PUT …/values)",
      sample: () => {
        const g = random();
        // Its value changes: no longer one a search finds.
        changed.add(g);
        return timed({
          method: 'PUT',
          path: `${passPath(`S${g}`)}/values`,
          headers: auth,
          body: JSON.stringify({ club: 'Chess', name: 'Cy', level: 'silver' }),
        });
      },
    },
    {
      key: 'download',
      name: 'download a signed .pkpass (GET …/pkpass)',
      sample: () => timed({ path: `${passPath(`S${random()}`)}/pkpass`, headers: { authorization: auth.authorization } }),
    },
    {
      key: 'wallet',
      name: "Wallet's pass fetch (GET /wallet/v1/passes/{type}/{serial})",
      sample: () => {
        const g = random();
        return timed({ path: `/wallet/v1/passes/${PASS_TYPE}/S${g}`, headers: { authorization: `ApplePass ${side.tokenOf(g)}` } });
      },
    },
    {
      key: 'small-list',
      name: 'the page after the last pass of a 100-pass template (GET /v1/passes?templateId=…&after=…)',
      sample: () => timed({ path: `/v1/passes?templateId=${side.small}&after=${side.lastSmallSeq}`, headers: auth }),
    },
    {
      key: 'small-first',
      name: "a 100-pass template's first page (GET /v1/passes?templateId=…)",
      sample: () => timed({ path: `/v1/passes?templateId=${side.small}`, headers: auth }),
    },
    { key: 'passes', name: 'the first page of every pass (GET /v1/passes)', sample: () => timed({ path: '/v1/passes', headers: auth }) },
    {
      key: 'search',
      name: "search by a placeholder's value (GET /v1/passes?templateId=…&values.name=…)",
      sample: async () => {
        const g = searchable();
        const at = performance.now();
        const answer = await call(agent, side.base, { path: `/v1/passes?templateId=${side.large}&values.name=N${g}`, headers: auth });
        const ms = performance.now() - at;
        const items = answer.status === 200 ? JSON.parse(answer.body.toString('utf8')).items : [];
        if (items.length !== 1 || items[0].serialNumber !== `S${g}`)
          throw new Error(`the search for N${g} answered ${answer.status} with ${items.length} passes`);
        return ms;
      },
    },
    {
      key: 'events',
      name: 'a page of events from the middle (GET /v1/events?after=…)',
      sample: () => timed({ path: `/v1/events?after=${side.middleEvent}`, headers: auth }),
    },
    {
      key: 'deliveries',
      name: "a registration's deliveries (GET /v1/webhooks/{id}/deliveries)",
      sample: () => timed({ path: `/v1/webhooks/${side.webhook}/deliveries`, headers: auth }),
    },
    { key: 'metrics', name: 'a /metrics scrape (GET /metrics)', sample: () => timed({ path: '/metrics', headers: { authorization: auth.authorization } }) },
    {
      key: 'template-delete',
      name: 'delete a template no pass was made from (DELETE /v1/templates/{id}: the in-use check)',
      sample: async () => {
        const answer = await call(agent, side.base, {
          method: 'POST',
          path: '/v1/templates',
          headers: auth,
          body: JSON.stringify({ ...template, name: 'Unused' }),
        });
        const { id } = JSON.parse(answer.body.toString('utf8'));
        return timed({ method: 'DELETE', path: `/v1/templates/${id}`, headers: auth });
      },
    },
    {
      key: 'delivery',
      name: 'a new pass to its webhook delivery (create, then claim, POST, record)',
      sample: async () => {
        const at = performance.now();
        const answer = await call(agent, side.base, {
          method: 'POST',
          path: `/v1/templates/${side.small}/passes`,
          headers: auth,
          body: JSON.stringify({ values: { club: 'Chess', name: 'Di', level: 'gold' }, serialNumber: `D-${side.passes}-${++made}` }),
        });
        if (answer.status !== 201) throw new Error(`create answered ${answer.status}`);
        return (await receiver.arrival(`D-${side.passes}-${made}`)) - at;
      },
    },
  ];
}

/** The statements of the workers, a scrape and a start, through the repositories' functions; writes rolled back. */
function statements(api, side) {
  const deliveries = api.QUEUE_KINDS.find((kind) => kind.table === 'passmint_deliveries');
  const page = (cursor) => ({ limit: 50, direction: 'after', cursor });
  return [
    { key: 'scrape', name: 'the /metrics figures (readQueueFigures)', run: (sql) => api.readQueueFigures(sql) },
    {
      key: 'release',
      name: "a start: orphaned claims released (releaseOrphans, 'gone')",
      write: true,
      run: (sql) => api.releaseOrphans(sql, api.QUEUE_KINDS, 'gone', 0),
    },
    {
      key: 'release-every',
      name: "a PGlite start: every claim released (releaseOrphans, 'every')",
      write: true,
      run: (sql) => api.releaseOrphans(sql, api.QUEUE_KINDS, 'every', 0),
    },
    {
      key: 'claim',
      name: "a worker's claim of due deliveries (16)",
      write: true,
      run: (sql) => api.claim(sql, deliveries, 16, 60_000, crypto.randomUUID(), 'scale/worker'),
    },
    {
      key: 'retention',
      name: 'a retention round of 1,000 ended events older than 30 days: their attempts, deliveries, then the events',
      write: true,
      run: async (sql) => {
        await api.deleteFinishedAttempts(sql, 30, 1000);
        await api.deleteFinishedDeliveries(sql, 30, 1000);
        await api.deleteOldEvents(sql, 30, 1000);
      },
    },
    { key: 'retention-pushes', name: 'retention: ended APNs pushes', write: true, run: (sql) => api.deleteEndedPushes(sql, 30, 1000) },
    { key: 'retention-google', name: 'retention: Google messages', write: true, run: (sql) => api.deleteOldGoogleMessages(sql, 30, 1000) },
    {
      key: 'in-use',
      name: 'the template-delete in-use check (deleteTemplate, unused template)',
      write: true,
      run: (sql) => api.deleteTemplate(sql, side.unused),
    },
    {
      key: 'find-pass',
      name: 'a pass by serial number (findPass)',
      run: (sql) => api.findPass(sql, PASS_TYPE, `S${1 + Math.floor(Math.random() * side.passes)}`),
    },
    {
      key: 'search-values',
      name: "a search by a placeholder's value (listPasses, values.name=…)",
      run: (sql) => api.listPasses(sql, page(undefined), { templateId: side.large, values: [['name', `N${searchablePass(side)}`]] }),
    },
    {
      key: 'list-small',
      name: "the small template's page after its last pass (listPasses)",
      run: (sql) => api.listPasses(sql, page(side.lastSmallSeq), { templateId: side.small }),
    },
    { key: 'list-events', name: 'a page of events from the middle (listEvents)', run: (sql) => api.listEvents(sql, page(side.middleEvent)) },
    {
      key: 'list-deliveries',
      name: "a registration's deliveries (listDeliveries)",
      run: (sql) => api.listDeliveries(sql, { webhookId: side.webhook }, page(undefined)),
    },
  ];
}

/** Runs `run` on a fresh transaction that is rolled back (a write) or committed; ms taken. */
async function once(client, statement, noted) {
  await client.query('begin');
  const at = performance.now();
  try {
    await statement.run(queryable(client, noted));
    return performance.now() - at;
  } finally {
    await client.query(statement.write ? 'rollback' : 'commit');
  }
}

/**
 * What keeping the counts costs PostgreSQL: the time the counting trigger
 * took (EXPLAIN ANALYZE's own trigger timing, measured inside the server, so
 * little moved by other work on the machine) on a statement that queues a
 * delivery, one that records it delivered, and a claim (which changes no
 * state); median of `samples`, each in a transaction rolled back. µs.
 */
async function countingCost(client, samples = 31) {
  const [{ base }] = (await client.query('select max(seq)::int as base from passmint_events')).rows;
  const hook = crypto.randomUUID();
  const triggerMs = (plan, name) => {
    const found = plan[0]?.Triggers?.find((trigger) => trigger['Trigger Name'] === name);
    return found === undefined ? NaN : found.Time;
  };
  const explainJson = async (text, params) => (await client.query(`explain (analyze, format json) ${text}`, params)).rows[0]['QUERY PLAN'];
  const allTriggersMs = (plan) => (plan[0]?.Triggers ?? []).reduce((sum, trigger) => sum + trigger.Time, 0);
  const times = { insert: [], claim: [], record: [], insertAll: [], recordAll: [] };
  for (let index = 0; index < samples; index++) {
    await client.query('begin');
    try {
      await client.query(`insert into passmint_webhooks (id, url, secret, state) values ($1, 'https://example.com/', 's', 'disabled')`, [hook]);
      const inserted = await explainJson(`insert into passmint_deliveries (event_seq, webhook_id, status) values ($1, $2, 'pending')`, [base - index, hook]);
      times.insert.push(triggerMs(inserted, 'passmint_deliveries_count_insert'));
      times.insertAll.push(allTriggersMs(inserted));
      const claimed = await explainJson(
        `update passmint_deliveries set locked_until = now() + interval '1 minute', lease = gen_random_uuid() where webhook_id = $1`,
        [hook],
      );
      times.claim.push(triggerMs(claimed, 'passmint_deliveries_count_update'));
      const recorded = await explainJson(
        `update passmint_deliveries set status = 'delivered', delivered_at = now(), locked_until = null where webhook_id = $1`,
        [hook],
      );
      times.record.push(triggerMs(recorded, 'passmint_deliveries_count_update'));
      times.recordAll.push(allTriggersMs(recorded));
    } finally {
      await client.query('rollback');
    }
  }
  const us = (list) => Number((median(list) * 1000).toFixed(1));
  return {
    insertUs: us(times.insert),
    claimUs: us(times.claim),
    recordUs: us(times.record),
    // Every trigger on the table together (the counts', and the timeline's when a delivery ends).
    insertAllUs: us(times.insertAll),
    recordAllUs: us(times.recordAll),
    samples,
  };
}

// --- The run -----------------------------------------------------------------------------

/**
 * Runs the scale test; resolves with the bench rows and what results.json keeps under `scale`.
 *
 * @param {{ passes?: number, small?: number, rounds?: number, samples?: number, log?: (line: string) => void }} [options]
 */
export async function benchScale(options = {}) {
  const { passes = 1_000_000, small: smallPasses = 10_000, rounds = 5, samples = 15, log = () => undefined } = options;
  const { default: pg } = await import('pg');
  const adminUrl = process.env.DATABASE_URL ?? `${process.env.PASSMINT_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432'}/postgres`;
  const dir = mkdtempSync(join(tmpdir(), 'passmint-scale-'));
  const bundleDir = `${root}node_modules/.cache/passmint-scale-${process.pid}`;
  await bundleForNode({ cli: join(root, 'src/cli/main.ts'), statements: join(root, 'bench/lib/scale-entry.js') }, bundleDir);
  const api = await import(pathToFileURL(join(bundleDir, 'statements.js')).href);
  const receiver = await startReceiver();
  const sides = [];
  const started = performance.now();
  try {
    writePki(dir);
    for (const size of [smallPasses, passes]) {
      log(`building ${size.toLocaleString('en')} passes …`);
      const built = await build({ pg, cli: join(bundleDir, 'cli.js'), dir, adminUrl, passes: size, receiver, log });
      const side = { ...built, passes: size, tokenOf };
      sides.push(side);
      log(`  built in ${built.buildSeconds.toFixed(0)} s`);
    }
    // Starts, timed (the start's statements run on the full tables), then the routes and statements in alternating rounds.
    for (const side of sides) {
      const running = await serve(join(bundleDir, 'cli.js'), dir, side.databaseUrl, `serve-${side.passes}`);
      Object.assign(side, { base: running.base, stop: running.stop, startMs: running.startMs });
      side.client = new pg.Client({ connectionString: side.databaseUrl });
      await side.client.connect();
      const [{ id }] = (
        await side.client.query(`insert into passmint_templates (template) values ($1::json) returning id`, [JSON.stringify({ ...template, name: 'Unused' })])
      ).rows;
      side.unused = id;
    }
    const agents = sides.map(() => new Agent({ keepAlive: true }));
    const results = [];
    const routeLists = sides.map((side, index) => routes(side, agents[index], receiver));
    for (let r = 0; r < routeLists[0].length; r++) {
      const perSide = sides.map(() => []);
      const ratios = [];
      const delivering = routeLists[0][r].key === 'delivery';
      const hotBefore = delivering ? await hotShare(sides[1].client) : undefined;
      for (const [index] of sides.entries()) for (let w = 0; w < 3; w++) await routeLists[index][r].sample(); // warm-up
      for (let round = 0; round < rounds; round++) {
        const medians = [];
        for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
          const times = [];
          for (let s = 0; s < samples; s++) times.push(await routeLists[index][r].sample());
          perSide[index].push(...times);
          medians[index] = median(times);
        }
        ratios.push(medians[1] / medians[0]);
      }
      if (delivering) {
        // The service's backends report their statistics within a second or so of going idle.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const hotAfter = await hotShare(sides[1].client);
        sides[1].hot = { updates: hotAfter.updates - hotBefore.updates, hot: hotAfter.hot - hotBefore.hot };
      }
      const result = {
        kind: 'route',
        key: routeLists[0][r].key,
        name: routeLists[0][r].name,
        smallMs: median(perSide[0]),
        largeMs: median(perSide[1]),
        ratio: median(ratios),
      };
      results.push(result);
      log(`${describeResult(result, sides)}`);
    }
    const statementLists = sides.map((side) => statements(api, side));
    const plans = [];
    for (let r = 0; r < statementLists[0].length; r++) {
      const perSide = sides.map(() => []);
      const ratios = [];
      let failed;
      try {
        for (const [index, side] of sides.entries()) await once(side.client, statementLists[index][r]); // warm-up
        for (let round = 0; round < rounds; round++) {
          const medians = [];
          for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
            const times = [];
            for (let s = 0; s < samples; s++) times.push(await once(sides[index].client, statementLists[index][r]));
            perSide[index].push(...times);
            medians[index] = median(times);
          }
          ratios.push(medians[1] / medians[0]);
        }
        const noted = [];
        await once(sides[1].client, statementLists[1][r], noted);
        plans.push({ key: statementLists[1][r].key, name: statementLists[1][r].name, statements: await explain(sides[1].client, noted) });
      } catch (error) {
        failed = error.message;
      }
      const result = {
        kind: 'statement',
        key: statementLists[0][r].key,
        name: statementLists[0][r].name,
        smallMs: perSide[0].length > 0 ? median(perSide[0]) : NaN,
        largeMs: perSide[1].length > 0 ? median(perSide[1]) : NaN,
        ratio: ratios.length > 0 ? median(ratios) : NaN,
        ...(failed === undefined ? {} : { failed }),
      };
      results.push(result);
      log(describeResult(result, sides));
    }
    const starts = {
      kind: 'start',
      key: 'start',
      name: '`passmint serve` from start to listening (migrations checked, orphaned claims released)',
      smallMs: sides[0].startMs,
      largeMs: sides[1].startMs,
      ratio: sides[1].startMs / sides[0].startMs,
    };
    results.push(starts);
    log(describeResult(starts, sides));
    const counting = await countingCost(sides[1].client);
    log(
      `keeping the counts (the counting trigger's own time in PostgreSQL): ${counting.insertUs} µs on a statement queueing a delivery, ${counting.recordUs} µs recording one delivered, ${counting.claimUs} µs on a claim; every trigger together: ${counting.insertAllUs} µs queueing, ${counting.recordAllUs} µs recording delivered`,
    );
    const hot = sides[1].hot;
    log(
      `delivery updates that were HOT on the ${passes.toLocaleString('en')}-pass database while the service delivered (the delivery route): ${hot?.hot} of ${hot?.updates}`,
    );
    for (const agent of agents) agent.destroy();
    return {
      results,
      plans,
      counting,
      hot: hot ?? null,
      sizes: sides.map((side) => ({ passes: side.passes, buildSeconds: Number(side.buildSeconds.toFixed(1)), disk: side.disk })),
      seconds: (performance.now() - started) / 1000,
      settings: { small: smallPasses, large: passes, rounds, samples },
    };
  } finally {
    for (const side of sides) {
      await side.client?.end().catch(() => undefined);
      await side.stop?.();
      await side.drop();
    }
    await receiver.close();
    rmSync(bundleDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A pass of the large template at random (the build gives pass g the value name = 'N' || g; every 100th is the small template's). */
const searchablePass = (side) => {
  const step = Math.floor(side.passes / SMALL_TEMPLATE_PASSES);
  for (;;) {
    const g = 1 + Math.floor(Math.random() * side.passes);
    if (g % step !== 0) return g;
  }
};

/** A pass's token as the build writes it with SQL (md5('t' || g)). */
const tokenOf = (g) => createHash('md5').update(`t${g}`).digest('hex');

/** How many updates of the deliveries table were HOT so far (pg_stat_user_tables). */
async function hotShare(client) {
  await client.query('select pg_stat_clear_snapshot()');
  const [row] = (
    await client.query(`select n_tup_upd::int as updates, n_tup_hot_upd::int as hot from pg_stat_user_tables where relname = 'passmint_deliveries'`)
  ).rows;
  return row ?? { updates: 0, hot: 0 };
}

const msText = (value) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms` : '—');

function describeResult(result, sides) {
  if (result.failed !== undefined) return `${result.name}: not measured (${result.failed})`;
  return `${result.name}: ${msText(result.smallMs)} at ${sides[0].passes.toLocaleString('en')}, ${msText(result.largeMs)} at ${sides[1].passes.toLocaleString('en')} → ${result.ratio.toFixed(2)}× ${result.ratio <= TARGET ? 'PASS' : 'FAIL'}`;
}

/** The bench rows (bench/run.js's shape) of a scale run. */
export function scaleRows({ results, settings }) {
  const large = settings.large.toLocaleString('en');
  const small = settings.small.toLocaleString('en');
  return results.map((result) => ({
    name: `scale: ${result.name}, at ${large} vs ${small} passes`,
    ours: result.failed === undefined ? msText(result.largeMs) : `not measured: ${result.failed}`,
    baseline: msText(result.smallMs),
    oursValue: result.largeMs * 1e6,
    baselineValue: result.smallMs * 1e6,
    ratio: result.ratio,
    ratioText: Number.isFinite(result.ratio) ? `${result.ratio.toFixed(2)}×` : '—',
    target: `≤ ${TARGET}×`,
    pass: Number.isFinite(result.ratio) && result.ratio <= TARGET,
  }));
}

/** What results.json keeps under `scale`. */
export function scaleFigures(measured, command = 'node bench/scale.js') {
  const round = (value) => (Number.isFinite(value) ? Number(value.toFixed(3)) : null);
  return {
    command,
    date: new Date().toISOString(),
    environment: environment(),
    seconds: Number(measured.seconds.toFixed(1)),
    settings: measured.settings,
    sizes: measured.sizes,
    results: measured.results.map((result) => ({ ...result, smallMs: round(result.smallMs), largeMs: round(result.largeMs), ratio: round(result.ratio) })),
    counting: measured.counting,
    hot: measured.hot,
    plans: measured.plans,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const quiet = args.includes('--quiet');
  const measured = await benchScale({
    passes: option('passes', 1_000_000),
    small: option('small', 10_000),
    rounds: option('rounds', 5),
    samples: option('samples', 15),
    log: (line) => console.log(line),
  });
  if (!quiet) {
    console.log('\nPlans on the large database (EXPLAIN (ANALYZE, BUFFERS)):');
    for (const entry of measured.plans) {
      console.log(`\n## ${entry.name}`);
      for (const { statement, plan } of entry.statements) console.log(`\n${statement}\n${plan}`);
    }
  }
  const large = measured.sizes.at(-1);
  console.log(`\nDisk at ${large.passes.toLocaleString('en')} passes (pg_total_relation_size / rows, indexes included):`);
  for (const [key, value] of Object.entries(large.disk))
    console.log(`  ${key}: ${value.bytesPerRow} B (heap ${value.heapPerRow} B, indexes ${value.indexesPerRow} B) over ${value.rows.toLocaleString('en')} rows`);
  const rows = scaleRows(measured);
  const failed = rows.filter((row) => !row.pass);
  console.log(
    `\n${rows.length - failed.length} of ${rows.length} within ${TARGET}×${failed.length > 0 ? `; over: ${failed.map((row) => row.name).join('; ')}` : ''}`,
  );
  if (!args.includes('--no-write')) {
    const path = fileURLToPath(new URL('./results.json', import.meta.url));
    const results = JSON.parse(readFileSync(path, 'utf8'));
    results.rows = mergeRows(results.rows, rows.map(storedRow), ['scale']);
    results.scale = scaleFigures(measured);
    writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
    const { writeFigures } = await import('../scripts/docs-figures.js');
    const rewritten = writeFigures();
    console.log(`Written to bench/results.json (scale rows and \`scale\`)${rewritten.length > 0 ? `; figures regenerated in ${rewritten.join(', ')}` : ''}.`);
  }
  process.exit(failed.length > 0 ? 1 : 0);
}
