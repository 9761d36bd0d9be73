// Publishing a template change on PostgreSQL: one `passmint serve` process
// (the CLI built from this tree, signing, --retention-days 0) on a database of
// its own.
//
//   node bench/publish.js [--passes 100000] [--no-write]
//
// - Speed: `--passes` passes (made by an import), then a change to the
//   template that changes every one of them, published with
//   POST /v1/templates/{id}/publish and timed from the request until
//   GET /v1/jobs/{id} says `succeeded` — against a bare baseline in the same
//   run on the same database: node + pg reading a copy of the same passes (as
//   they were before the publish) a batch of 500 at a time in seq order, each
//   rendered again with compileTemplate + buildPass (serial number and token
//   kept, the pass checked) and compared with the stored one, the changed ones
//   written with one multi-row UPDATE and their `pass.updated` events with one
//   INSERT, one transaction a batch. Target: ours at least half the
//   baseline's passes per second.
// - Responsiveness: GET one pass, one request at a time 20 ms apart, for 10 s
//   idle and for the whole publish: p99 during over p99 idle, at most 3×.
//
// Written into bench/results.json as rows `publish: …` (the `publish` section
// of `npm run bench`). The machine's load average is printed with each figure.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PASS_TYPE, template } from './lib/bench-template.js';
import { bundleForNode } from './lib/bundle.js';
import { writePki } from './lib/pki.js';
import { mergeRows, storedRow } from './lib/sections.js';
import { adminDatabaseUrl, call, getLoop, percentile, serve, withDatabase } from './lib/service.js';
import { environment } from './load.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const GET_TARGET = 3;
const SPEED_TARGET = 0.5;
const BARE_BATCH = 500;

const load = () => loadavg()[0].toFixed(2);
const json = (answer) => JSON.parse(answer.body.toString('utf8'));

/** The template as changed: every pass's Level label reads differently. */
const changed = {
  ...template,
  description: {
    ...template.description,
    generic: { ...template.description.generic, secondaryFields: [{ key: 'level', label: 'Membership level', value: '${level}' }] },
  },
};

/** Polls a job until it ends; resolves with it, or throws when it did not succeed. */
async function jobEnd(agent, base, auth, id) {
  for (;;) {
    const job = json(await call(agent, base, { path: `/v1/jobs/${id}`, headers: auth }));
    if (job.state === 'succeeded') return job;
    if (job.state === 'failed' || job.state === 'cancelled') throw new Error(`the ${job.kind} job ended ${job.state}: ${job.error}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The bare baseline over `bare_passes` (a copy of the passes before the
 * publish): rendered again, compared, the changed ones updated with their
 * events, a batch a transaction; resolves with seconds and passes changed.
 */
async function barePublish(pg, databaseUrl, core, templateJson) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    const compiled = core.compileTemplate(templateJson);
    let cursor = 0;
    let changedCount = 0;
    for (;;) {
      await client.query('begin');
      const { rows } = await client.query(
        'select pass_type_identifier, serial_number, pass_values, pass, seq from bare_passes where template_id = $1 and seq > $2 order by seq limit $3 for update',
        [templateJson.id, cursor, BARE_BATCH],
      );
      const updates = [];
      for (const row of rows) {
        const pass = core.buildPass(compiled, row.pass_values, {
          teamIdentifier: row.pass.teamIdentifier,
          organizationName: row.pass.organizationName,
          webServiceURL: row.pass.webServiceURL,
          serialNumber: row.serial_number,
          authenticationToken: row.pass.authenticationToken,
        });
        if (JSON.stringify(pass) !== JSON.stringify(row.pass)) updates.push(pass);
      }
      if (updates.length > 0) {
        await client.query(
          `update bare_passes p set pass = x.pass::json, version = p.version + 1, updated_at = now()
             from unnest($1::text[], $2::text[], $3::text[]) as x(type, serial, pass) where p.pass_type_identifier = x.type and p.serial_number = x.serial`,
          [updates.map((pass) => pass.passTypeIdentifier), updates.map((pass) => pass.serialNumber), updates.map((pass) => JSON.stringify(pass))],
        );
        const events = updates.map((pass) => ({
          id: crypto.randomUUID(),
          type: 'pass.updated',
          created: new Date().toISOString(),
          data: { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier },
        }));
        await client.query(
          `insert into bare_events (seq, id, type, body) select nextval('bare_event_seq'), i::uuid, 'pass.updated', b from unnest($1::text[], $2::text[]) as x(i, b)`,
          [events.map((event) => event.id), events.map((event) => JSON.stringify(event))],
        );
      }
      await client.query('commit');
      changedCount += updates.length;
      if (rows.length < BARE_BATCH) break;
      cursor = rows[rows.length - 1].seq;
    }
    return { seconds: (performance.now() - started) / 1000, changed: changedCount };
  } finally {
    await client.end();
  }
}

/**
 * Runs the publish bench; resolves with the figures {@link publishRows} makes rows of.
 *
 * @param {{ passes?: number, log?: (line: string) => void }} [options]
 */
export async function benchPublish(options = {}) {
  const { passes = 100_000, log = () => undefined } = options;
  const dir = mkdtempSync(join(tmpdir(), 'passmint-publish-'));
  const bundleDir = `${root}node_modules/.cache/passmint-publish-${process.pid}`;
  await bundleForNode({ cli: join(root, 'src/cli/main.ts'), core: join(root, 'src/index.ts') }, bundleDir);
  const core = await import(pathToFileURL(join(bundleDir, 'core.js')).href);
  try {
    writePki(dir);
    return await withDatabase(adminDatabaseUrl(), 'passmint_publish', async (databaseUrl, pg) => {
      const service = await serve(join(bundleDir, 'cli.js'), dir, databaseUrl, 'serve', ['--retention-days', '0']);
      const agent = new Agent({ keepAlive: true });
      try {
        const auth = { authorization: `Bearer ${service.key}` };
        const jsonHeaders = { ...auth, 'content-type': 'application/json' };
        const { id: templateId } = json(
          await call(agent, service.base, { method: 'POST', path: '/v1/templates', headers: jsonHeaders, body: JSON.stringify(template) }),
        );
        // The passes: an import of `passes` records.
        const lines = ['serialNumber,club,name,level'];
        for (let n = 1; n <= passes; n++) lines.push(`P-${n},Chess,Member ${n},${n % 2 === 0 ? 'gold' : 'silver'}`);
        log(`making ${passes.toLocaleString('en')} passes by an import (load ${load()}) …`);
        const imported = await call(agent, service.base, {
          method: 'POST',
          path: `/v1/templates/${templateId}/imports`,
          headers: { ...auth, 'content-type': 'text/csv' },
          body: Buffer.from(`${lines.join('\r\n')}\r\n`),
        });
        await jobEnd(agent, service.base, auth, json(imported).id);

        // The baseline's copy of the passes as they are before the publish, and its events table.
        const admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        try {
          await admin.query('create table bare_passes (like passmint_passes including all)');
          await admin.query('insert into bare_passes select * from passmint_passes');
          await admin.query('create table bare_events (like passmint_events including all)');
          await admin.query('create sequence bare_event_seq');
          await admin.query('vacuum analyze bare_passes');
        } finally {
          await admin.end();
        }

        const probe = `/v1/passes/${PASS_TYPE}/P-${Math.ceil(passes / 2)}`;
        const probeAgent = new Agent({ keepAlive: true });
        const idleEnds = performance.now() + 10_000;
        const idle = await getLoop(probeAgent, service.base, probe, auth, () => performance.now() > idleEnds);
        log(`GET one pass, idle: p50 ${percentile(idle, 50).toFixed(2)} ms, p99 ${percentile(idle, 99).toFixed(2)} ms over ${idle.length} (load ${load()})`);

        // Ours: the template changes, then the publish, with the GETs running.
        const changedTemplate = { ...changed, id: templateId };
        await call(agent, service.base, { method: 'PUT', path: `/v1/templates/${templateId}`, headers: jsonHeaders, body: JSON.stringify(changedTemplate) });
        const loadBefore = load();
        let ended = false;
        const during = getLoop(probeAgent, service.base, probe, auth, () => ended);
        const started = performance.now();
        const posted = await call(agent, service.base, { method: 'POST', path: `/v1/templates/${templateId}/publish`, headers: auth });
        if (posted.status !== 202) throw new Error(`the publish answered ${posted.status}: ${posted.body.toString('utf8').slice(0, 300)}`);
        const job = await jobEnd(agent, service.base, auth, json(posted).id).finally(() => {
          ended = true;
        });
        const oursSeconds = (performance.now() - started) / 1000;
        const busy = await during;
        probeAgent.destroy();
        if (job.changed !== passes) throw new Error(`the publish changed ${job.changed} of ${passes} passes`);
        log(
          `  publish: ${oursSeconds.toFixed(1)} s: ${Math.round(passes / oursSeconds).toLocaleString('en')} passes/s; GET p99 ${percentile(busy, 99).toFixed(2)} ms during over ${busy.length} (load ${load()})`,
        );

        const bare = await barePublish(pg, databaseUrl, core, changedTemplate);
        if (bare.changed !== passes) throw new Error(`the bare baseline changed ${bare.changed} of ${passes} passes`);
        log(`  bare node + pg: ${bare.seconds.toFixed(1)} s: ${Math.round(passes / bare.seconds).toLocaleString('en')} passes/s (load ${load()})`);
        return {
          speed: { passes, oursSeconds, bareSeconds: bare.seconds, load: [loadBefore, load()] },
          latency: { idleP99: percentile(idle, 99), busyP99: percentile(busy, 99), idleCount: idle.length, busyCount: busy.length },
          settings: { passes },
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

const perSecond = (value) => `${Math.round(value).toLocaleString('en')} passes/s`;

/** The bench rows (bench/run.js's shape) of a publish run. */
export function publishRows({ speed, latency }) {
  const n = speed.passes.toLocaleString('en');
  const oursRate = speed.passes / speed.oursSeconds;
  const bareRate = speed.passes / speed.bareSeconds;
  const ratio = oursRate / bareRate;
  const getRatio = latency.busyP99 / latency.idleP99;
  return [
    {
      name: `publish: a template change to ${n} passes through POST /v1/templates/{id}/publish until the job succeeded (PostgreSQL) vs bare node + pg: compileTemplate + buildPass, compared, multi-row UPDATEs and pass.updated events in batches of ${BARE_BATCH} (load ${speed.load.join(' → ')})`,
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
      name: `publish: p99 of GET a pass during the publish to ${n} passes (${latency.busyCount.toLocaleString('en')} requests) vs idle (${latency.idleCount.toLocaleString('en')})`,
      ours: `${latency.busyP99.toFixed(1)} ms`,
      baseline: `${latency.idleP99.toFixed(1)} ms`,
      oursValue: latency.busyP99,
      baselineValue: latency.idleP99,
      ratio: getRatio,
      ratioText: `${getRatio.toFixed(2)}×`,
      target: `≤ ${GET_TARGET}×`,
      pass: getRatio <= GET_TARGET,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const measured = await benchPublish({ passes: option('passes', 100_000), log: (line) => console.log(line) });
  const rows = publishRows(measured);
  for (const row of rows) console.log(`${row.name}: ${row.ours} vs ${row.baseline} → ${row.ratioText} ${row.pass ? 'PASS' : 'FAIL'}`);
  if (!args.includes('--no-write')) {
    const path = fileURLToPath(new URL('./results.json', import.meta.url));
    const results = JSON.parse(readFileSync(path, 'utf8'));
    results.rows = mergeRows(results.rows, rows.map(storedRow), ['publish']);
    // Where the rows came from: this command, not the last `npm run bench`.
    results.publish = { command: 'node bench/publish.js', date: new Date().toISOString(), environment: environment(), settings: measured.settings };
    writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
    console.log('Written to bench/results.json (publish rows).');
  }
  process.exit(rows.some((row) => row.pass === false) ? 1 : 0);
}
