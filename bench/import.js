// Bulk imports on PostgreSQL: one `passmint serve` process (the CLI built from
// this tree, signing, --retention-days 0) on a database of its own.
//
//   node bench/import.js [--rows 100000] [--large 1000000] [--no-write]
//
// - Speed: a CSV of `--rows` records (RFC 4180, a quoted field with a comma in
//   every tenth) posted to POST /v1/templates/{id}/imports, timed from the
//   request until GET /v1/jobs/{id} says `succeeded`, against a bare baseline
//   in the same run on the same database: node + pg reading the same bytes with
//   csv-parse, each record rendered by compileTemplate (buildPass: serial,
//   token, the pass checked), written with its `pass.created` event in
//   multi-row INSERTs (unnest) of 500, one transaction a batch, into copies of
//   the service's passes and events tables (their indexes included). Target:
//   ours at least half the baseline's rows per second.
// - Memory: a CSV of `--large` records imported while the service's resident
//   memory (VmRSS) is sampled every 250 ms: its peak, against 300 MiB.
// - Responsiveness: GET one pass, one request at a time 20 ms apart, for 10 s
//   idle (before the large import) and for the whole large import: p99 during
//   over p99 idle, at most 3×.
// - Search at the large size: GET /v1/passes?templateId=…&values.name=… for a
//   record of the import, timed and its statement explained (EXPLAIN
//   (ANALYZE, BUFFERS)) twice: right after the import, as the table stands
//   (where autovacuum is off, as on a test server, never analyzed), then
//   after ANALYZE, as autovacuum leaves it.
//
// Written into bench/results.json as rows `import: …` (the `import` section
// of `npm run bench`). The machine's load average is printed with each figure.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PASS_TYPE, template } from './lib/bench-template.js';
import { bundleForNode } from './lib/bundle.js';
import { writePki, TEAM } from './lib/pki.js';
import { mergeRows, storedRow } from './lib/sections.js';
import { adminDatabaseUrl, call, getLoop, explain, percentile, queryable, rssMiB, serve, withDatabase } from './lib/service.js';
import { environment } from './load.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const RSS_BUDGET_MIB = 300;
const GET_TARGET = 3;
const SPEED_TARGET = 0.5;
const BARE_BATCH = 500;

/** The CSV of `count` records for the bench template (club, name, level); names `PREFIX-n`, every tenth quoted with a comma. */
function importCsv(count, prefix) {
  const lines = ['club,name,level'];
  for (let n = 1; n <= count; n++) lines.push(n % 10 === 0 ? `Chess,"${prefix}-${n}, Jr.",gold` : `Chess,${prefix}-${n},${n % 2 === 0 ? 'gold' : 'silver'}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

const load = () => loadavg()[0].toFixed(2);

/** Posts the file, then polls the job until it ends; resolves with the job and the seconds from request to end. */
async function importThrough(agent, base, key, templateId, csv, { onPoll } = {}) {
  const started = performance.now();
  const posted = await call(agent, base, {
    method: 'POST',
    path: `/v1/templates/${templateId}/imports`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
    body: csv,
  });
  if (posted.status !== 202) throw new Error(`the import answered ${posted.status}: ${posted.body.toString('utf8').slice(0, 300)}`);
  const { id } = JSON.parse(posted.body.toString('utf8'));
  for (;;) {
    const answer = await call(agent, base, { path: `/v1/jobs/${id}`, headers: { authorization: `Bearer ${key}` } });
    const job = JSON.parse(answer.body.toString('utf8'));
    onPoll?.(job);
    if (job.state === 'succeeded') return { job, seconds: (performance.now() - started) / 1000 };
    if (job.state === 'failed' || job.state === 'cancelled')
      throw new Error(`the import job ended ${job.state}: ${answer.body.toString('utf8').slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The bare baseline: the same bytes parsed, rendered and written with node + pg alone; seconds. */
async function bareImport(pg, databaseUrl, core, parse, csv, templateJson) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('drop table if exists bare_passes; drop table if exists bare_events; drop sequence if exists bare_event_seq');
    await client.query('create table bare_passes (like passmint_passes including all)');
    await client.query('create table bare_events (like passmint_events including all)');
    await client.query('create sequence bare_event_seq');
    const started = performance.now();
    const compiled = core.compileTemplate(templateJson);
    const issuer = { teamIdentifier: TEAM, organizationName: 'Bench', webServiceURL: 'https://passes.example.com/wallet' };
    let batch = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const events = batch.map(({ pass }) => ({
        id: crypto.randomUUID(),
        type: 'pass.created',
        created: new Date().toISOString(),
        data: { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier },
      }));
      await client.query('begin');
      await client.query(
        `insert into bare_passes (pass_type_identifier, serial_number, template_id, pass_values, pass)
         select t, s, 1, v::json, p::json from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as x(t, s, v, p)`,
        [
          batch.map(({ pass }) => pass.passTypeIdentifier),
          batch.map(({ pass }) => pass.serialNumber),
          batch.map(({ values }) => JSON.stringify(values)),
          batch.map(({ pass }) => JSON.stringify(pass)),
        ],
      );
      await client.query(
        `insert into bare_events (seq, id, type, body) select nextval('bare_event_seq'), i::uuid, 'pass.created', b from unnest($1::text[], $2::text[]) as x(i, b)`,
        [events.map((event) => event.id), events.map((event) => JSON.stringify(event))],
      );
      await client.query('commit');
      batch = [];
    };
    let header;
    for await (const record of Readable.from([csv]).pipe(parse({ bom: true, relax_column_count: false }))) {
      if (header === undefined) {
        header = record;
        continue;
      }
      const values = Object.fromEntries(header.map((name, index) => [name, record[index]]));
      batch.push({ values, pass: core.buildPass(compiled, values, issuer) });
      if (batch.length >= BARE_BATCH) await flush();
    }
    await flush();
    const seconds = (performance.now() - started) / 1000;
    const [{ n }] = (await client.query('select count(*)::int as n from bare_passes')).rows;
    if (n !== csv.toString('utf8').split('\r\n').length - 2) throw new Error(`the bare baseline wrote ${n} passes`);
    await client.query('drop table bare_passes; drop table bare_events; drop sequence bare_event_seq');
    return seconds;
  } finally {
    await client.end();
  }
}

/**
 * Runs the import bench; resolves with the figures {@link importRows} makes rows of.
 *
 * @param {{ rows?: number, large?: number, log?: (line: string) => void }} [options]
 */
export async function benchImport(options = {}) {
  const { rows = 100_000, large = 1_000_000, log = () => undefined } = options;
  const dir = mkdtempSync(join(tmpdir(), 'passmint-import-'));
  const bundleDir = `${root}node_modules/.cache/passmint-import-${process.pid}`;
  await bundleForNode({ cli: join(root, 'src/cli/main.ts'), core: join(root, 'src/index.ts'), statements: join(root, 'bench/lib/scale-entry.js') }, bundleDir);
  const core = await import(pathToFileURL(join(bundleDir, 'core.js')).href);
  const statements = await import(pathToFileURL(join(bundleDir, 'statements.js')).href);
  const { parse } = await import('csv-parse');
  try {
    writePki(dir);
    return await withDatabase(adminDatabaseUrl(), 'passmint_import', async (databaseUrl, pg) => {
      const service = await serve(join(bundleDir, 'cli.js'), dir, databaseUrl, 'serve', ['--retention-days', '0']);
      const agent = new Agent({ keepAlive: true });
      try {
        const auth = { authorization: `Bearer ${service.key}` };
        const created = await call(agent, service.base, {
          method: 'POST',
          path: '/v1/templates',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(template),
        });
        const { id: templateId } = JSON.parse(created.body.toString('utf8'));
        const templateJson = { ...template, id: templateId };

        // Speed: ours, then the bare baseline, on the same bytes.
        const csv = importCsv(rows, 'M');
        log(`importing ${rows.toLocaleString('en')} rows through the API (load ${load()}) …`);
        const loadBefore = load();
        const ours = await importThrough(agent, service.base, service.key, templateId, csv);
        if (ours.job.created !== rows) throw new Error(`the import made ${ours.job.created} of ${rows} passes`);
        log(`  ${ours.seconds.toFixed(1)} s: ${Math.round(rows / ours.seconds).toLocaleString('en')} rows/s (load ${load()})`);
        const bare = await bareImport(pg, databaseUrl, core, parse, csv, templateJson);
        log(`  bare node + pg: ${bare.toFixed(1)} s: ${Math.round(rows / bare).toLocaleString('en')} rows/s (load ${load()})`);
        const speed = { rows, oursSeconds: ours.seconds, bareSeconds: bare, load: [loadBefore, load()] };

        // Memory and responsiveness during the large import.
        const probe = `/v1/passes/${PASS_TYPE}/${encodeURIComponent(
          JSON.parse((await call(agent, service.base, { path: `/v1/passes?templateId=${templateId}&limit=1`, headers: auth })).body.toString('utf8')).items[0]
            .serialNumber,
        )}`;
        const probeAgent = new Agent({ keepAlive: true });
        const idleEnds = performance.now() + 10_000;
        const idle = await getLoop(probeAgent, service.base, probe, auth, () => performance.now() > idleEnds);
        log(`GET one pass, idle: p50 ${percentile(idle, 50).toFixed(2)} ms, p99 ${percentile(idle, 99).toFixed(2)} ms over ${idle.length} (load ${load()})`);
        const big = importCsv(large, 'L');
        const samples = [];
        const rssBefore = rssMiB(service.pid);
        const sampler = setInterval(() => samples.push(rssMiB(service.pid) ?? NaN), 250);
        let ended = false;
        const during = getLoop(probeAgent, service.base, probe, auth, () => ended);
        const loads = [];
        let lastLog = performance.now();
        const largeRun = await importThrough(agent, service.base, service.key, templateId, big, {
          onPoll: (job) => {
            if (performance.now() - lastLog < 30_000) return;
            lastLog = performance.now();
            loads.push(Number(load()));
            log(`  ${job.state}: ${(job.created ?? 0).toLocaleString('en')} made, RSS ${samples.at(-1)} MiB (load ${load()})`);
          },
        }).finally(() => {
          ended = true;
          clearInterval(sampler);
        });
        const busy = await during;
        probeAgent.destroy();
        if (largeRun.job.created !== large) throw new Error(`the large import made ${largeRun.job.created} of ${large} passes`);
        const peak = Math.max(...samples.filter(Number.isFinite));
        log(
          `${large.toLocaleString('en')} rows: ${largeRun.seconds.toFixed(0)} s (${Math.round(large / largeRun.seconds).toLocaleString('en')} rows/s); RSS ${rssBefore} MiB before, peak ${peak} MiB; GET p99 ${percentile(busy, 99).toFixed(2)} ms during over ${busy.length} (load ${load()})`,
        );

        // Search by value among the large import's passes.
        const value = `L-${Math.floor(large * 0.77) + 1}`;
        const searchPath = `/v1/passes?templateId=${templateId}&values.name=${value}`;
        const timeSearch = async () => {
          const times = [];
          for (let index = 0; index < 21; index++) {
            const at = performance.now();
            const answer = await call(agent, service.base, { path: searchPath, headers: auth });
            times.push(performance.now() - at);
            const found = JSON.parse(answer.body.toString('utf8')).items;
            if (answer.status !== 200 || found.length !== 1) throw new Error(`the search answered ${answer.status} with ${found?.length} passes`);
          }
          return percentile(
            times.sort((x, y) => x - y),
            50,
          );
        };
        // Its statement (the repository's own), explained on a connection of this process.
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        const explainSearch = async () => {
          const noted = [];
          await statements.listPasses(
            queryable(client, noted),
            { limit: 50, direction: 'after', cursor: undefined },
            { templateId, values: [['name', value]] },
          );
          return (await explain(client, noted))[0];
        };
        const [{ autovacuum }] = (await client.query('show autovacuum')).rows;
        const [stats] = (
          await client.query(`select coalesce(last_autoanalyze, last_analyze) as analyzed from pg_stat_user_tables where relname = 'passmint_passes'`)
        ).rows;
        // Right after the import, as the table stands (autovacuum analyzes a table a million rows changed within a minute or so, where it runs).
        const before = { medianMs: await timeSearch(), plan: (await explainSearch()).plan };
        log(
          `search by value at ${(rows + large).toLocaleString('en')} passes right after the import (autovacuum ${autovacuum}, the table last analyzed ${stats.analyzed?.toISOString() ?? 'never'}): median ${before.medianMs.toFixed(2)} ms; plan:\n${before.plan}`,
        );
        // Then as autovacuum leaves it: statistics gathered.
        await client.query('analyze passmint_passes');
        const after = { medianMs: await timeSearch(), ...(await explainSearch()) };
        await client.end();
        log(`… once analyzed: median ${after.medianMs.toFixed(2)} ms; plan:\n${after.statement}\n${after.plan}`);
        return {
          speed,
          large: {
            rows: large,
            seconds: largeRun.seconds,
            rssBeforeMiB: rssBefore,
            peakMiB: peak,
            idleP99: percentile(idle, 99),
            busyP99: percentile(busy, 99),
            idleCount: idle.length,
            busyCount: busy.length,
            load: loads.length > 0 ? Math.max(...loads) : Number(load()),
          },
          search: { passes: rows + large, autovacuum, medianMs: after.medianMs, plan: after.plan, beforeAnalyze: before },
          settings: { rows, large },
        };
      } finally {
        agent.destroy();
        await service.stop();
      }
    });
  } finally {
    rmSync(bundleDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

const perSecond = (value) => `${Math.round(value).toLocaleString('en')} rows/s`;

/** The bench rows (bench/run.js's shape) of an import run. */
export function importRows({ speed, large, search }) {
  const n = speed.rows.toLocaleString('en');
  const big = large.rows.toLocaleString('en');
  const oursRate = speed.rows / speed.oursSeconds;
  const bareRate = speed.rows / speed.bareSeconds;
  const ratio = oursRate / bareRate;
  const getRatio = large.busyP99 / large.idleP99;
  return [
    {
      name: `import: ${n} CSV rows through POST /v1/templates/{id}/imports until the job succeeded (PostgreSQL) vs bare node + pg: csv-parse, compileTemplate, multi-row INSERTs of passes and pass.created events (load ${speed.load.join(' → ')})`,
      ours: perSecond(oursRate),
      baseline: perSecond(bareRate),
      oursValue: oursRate,
      baselineValue: bareRate,
      ratio,
      ratioText: `${ratio.toFixed(2)}×`,
      target: `≥ ${SPEED_TARGET}×`,
      pass: ratio >= SPEED_TARGET,
    },
    {
      name: `import: peak resident memory (RSS) of passmint serve while importing ${big} CSV rows (${perSecond(large.rows / large.seconds)}; ${large.rssBeforeMiB} MiB before; load ≤ ${large.load})`,
      ours: `${large.peakMiB} MiB`,
      baseline: `${RSS_BUDGET_MIB} MiB budget`,
      oursValue: large.peakMiB,
      baselineValue: RSS_BUDGET_MIB,
      ratio: large.peakMiB / RSS_BUDGET_MIB,
      ratioText: `${(large.peakMiB / RSS_BUDGET_MIB).toFixed(2)}×`,
      target: '≤ 1×',
      pass: large.peakMiB <= RSS_BUDGET_MIB,
    },
    {
      name: `import: p99 of GET a pass during the ${big}-row import (${large.busyCount.toLocaleString('en')} requests) vs idle (${large.idleCount.toLocaleString('en')})`,
      ours: `${large.busyP99.toFixed(1)} ms`,
      baseline: `${large.idleP99.toFixed(1)} ms`,
      oursValue: large.busyP99,
      baselineValue: large.idleP99,
      ratio: getRatio,
      ratioText: `${getRatio.toFixed(2)}×`,
      target: `≤ ${GET_TARGET}×`,
      pass: getRatio <= GET_TARGET,
    },
    {
      name: `import: search by value (GET /v1/passes?templateId=…&values.name=…) among ${search.passes.toLocaleString('en')} imported passes, median, the table analyzed (right after the import, autovacuum ${search.autovacuum} and never analyzed: ${search.beforeAnalyze.medianMs.toFixed(0)} ms) (info)`,
      ours: `${search.medianMs.toFixed(2)} ms`,
      baseline: '—',
      oursValue: search.medianMs,
      baselineValue: NaN,
      ratio: NaN,
      ratioText: '—',
      target: '—',
      pass: null,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const measured = await benchImport({ rows: option('rows', 100_000), large: option('large', 1_000_000), log: (line) => console.log(line) });
  const rows = importRows(measured);
  for (const row of rows)
    console.log(`${row.name}: ${row.ours} vs ${row.baseline} → ${row.ratioText} ${row.pass === null ? 'info' : row.pass ? 'PASS' : 'FAIL'}`);
  if (!args.includes('--no-write')) {
    const path = fileURLToPath(new URL('./results.json', import.meta.url));
    const results = JSON.parse(readFileSync(path, 'utf8'));
    results.rows = mergeRows(results.rows, rows.map(storedRow), ['import']);
    // Where the rows came from (the docs table's line above them): this command, not the last `npm run bench`.
    results.import = {
      command: 'node bench/import.js',
      date: new Date().toISOString(),
      environment: environment(),
      settings: measured.settings,
      search: measured.search,
    };
    writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
    const { writeFigures } = await import('../scripts/docs-figures.js');
    const rewritten = writeFigures();
    console.log(`Written to bench/results.json (import rows)${rewritten.length > 0 ? `; figures regenerated in ${rewritten.join(', ')}` : ''}.`);
  }
  process.exit(rows.some((row) => row.pass === false) ? 1 : 0);
}
