// passmint/server (issue 14), three ratios measured in one run:
// - deliveries per second with 3 workers against 1, on PostgreSQL (each
//   worker a createServer with its own pool, as separate processes would be);
// - the same with real processes: 3 `passmint serve` processes (the CLI,
//   spawned as the scale-out test does) against 1, timed from when every
//   process listens until the outbox is empty (startup left out). Each event
//   here is a pass of its own, so a registration may have up to
//   --webhook-concurrency of its deliveries in flight at once (16 by
//   default, counted over every process; only a pass's own events wait for
//   one another), and this row has 96 registrations × 10 events: enough
//   deliveries due at once that three processes' claims, not the
//   registrations' limits, bound what is in flight;
// - deliveries per second on embedded PGlite against PostgreSQL, 1 worker;
// - passes created and signed through the HTTP API (POST …/passes, then
//   GET …/pkpass) against buildPass + packPass alone on the same template,
//   files and signer: what the service costs on top of the library.
//
// Deliveries go to a receiver in this process, 24 registrations × 20 events
// = 480 per round. For workers it answers after 50 ms (a receiver across a
// network: delivery is bound by waiting, and more workers wait in parallel);
// for PGlite against PostgreSQL after 1 ms (bound by the database). Rounds
// alternate, and each ratio is the median of the rounds' ratios.
// The library is bundled from src/ with the `node` condition, under
// node_modules/.cache so `pg` and PGlite resolve as for an installed package.
// PostgreSQL: PASSMINT_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432);
// a database is made for the run and dropped after it.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PASS_TYPE, template } from './lib/bench-template.js';
import { bundleForNode } from './lib/bundle.js';
import { median } from './lib/measure.js';
import { makePki, noisePng, TEAM } from './lib/pki.js';
import { BENCH_SECRET_KEY, serveEnv, withDatabase } from './lib/service.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const POSTGRES = process.env.PASSMINT_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432';
const REGISTRATIONS = 24;
const EVENTS = 20;

async function load() {
  const dir = `${root}node_modules/.cache/passmint-bench-server-${process.pid}`;
  await bundleForNode(
    { server: `${root}src/server/index.ts`, pkpass: `${root}src/pkpass/index.ts`, core: `${root}src/index.ts`, cli: `${root}src/cli/main.ts` },
    dir,
  );
  const [server, pkpass, core] = await Promise.all(['server', 'pkpass', 'core'].map((name) => import(pathToFileURL(join(dir, `${name}.js`)).href)));
  return { server, pkpass, core, cli: join(dir, 'cli.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A receiver that answers the handshake and 200 to events, after `latencyMs`. */
async function startReceiver() {
  let received = 0;
  const state = { latencyMs: 1 };
  const server = createHttpServer((incoming, outgoing) => {
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      setTimeout(
        () => {
          if (event.type === 'webhook.verify') {
            outgoing.writeHead(200, { 'content-type': 'text/plain' });
            outgoing.end(event.data.token);
            return;
          }
          received++;
          outgoing.writeHead(200);
          outgoing.end();
        },
        event.type === 'webhook.verify' ? 0 : state.latencyMs,
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    count: () => received,
    state,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

/** Runs `run(url)` on a database made for it on the PostgreSQL server of PASSMINT_BENCH_POSTGRES; dropped after. */
const withPostgresDatabase = (run) => withDatabase(`${POSTGRES}/postgres`, 'passmint_bench', run);

/** Fills the outbox: `registrations` verified webhooks, `events` passes (one pass.created each). */
async function fill(setup, receiverUrl, registrations = REGISTRATIONS, events = EVENTS) {
  const key = setup.firstApiKey ?? (await setup.addApiKey());
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const { url } = await setup.listen(0);
  for (let index = 0; index < registrations; index++) {
    const response = await fetch(`${url}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${receiverUrl}/r${index}` }) });
    if ((await response.json()).state !== 'enabled') throw new Error('a bench registration was not verified');
  }
  const { id } = await (await fetch(`${url}/v1/templates`, { method: 'POST', headers, body: JSON.stringify(template) })).json();
  for (let index = 0; index < events; index++) {
    await fetch(`${url}/v1/templates/${id}/passes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ values: { club: 'Chess', name: `N${index}`, level: 'gold' } }),
    });
  }
  const [{ n }] = await setup.database.query(`select count(*)::int as n from passmint_deliveries`);
  if (n !== registrations * events) throw new Error(`expected ${registrations * events} deliveries, found ${n}`);
}

/** ns per delivery: every delivery made pending again, `workers` started, timed until none is pending. */
async function deliveryRound(database, makeWorker, workers, receiver) {
  await database.query(
    `update passmint_deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = null, lease = null, first_attempt_at = null`,
  );
  const before = receiver.count();
  const started = performance.now();
  const running = await Promise.all(Array.from({ length: workers }, () => makeWorker()));
  for (;;) {
    const [{ n }] = await database.query(`select count(*)::int as n from passmint_deliveries where status = 'pending'`);
    if (n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const elapsed = performance.now() - started;
  await Promise.all(running.map((server) => server.close()));
  if (receiver.count() - before < REGISTRATIONS * EVENTS) throw new Error('deliveries missing');
  return (elapsed * 1e6) / (REGISTRATIONS * EVENTS);
}

/** Starts `passmint serve` on `databaseUrl` as a child process; resolves once it listens. */
function spawnServe(cli, databaseUrl) {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--database-url', databaseUrl, '--allow-private-webhooks', '--poll-ms', '5'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: serveEnv(),
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => (output += chunk));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('listening on')) resolve({ stop: () => (child.kill('SIGTERM'), exited) });
    });
    void exited.then((code) => reject(new Error(`passmint serve ended (${code}) before listening: ${output}`)));
  });
}

const PROCESS_REGISTRATIONS = 96;
const PROCESS_EVENTS = 10;

/** ns per delivery with `count` serve processes: started first (nothing is pending then), timed from the reset until none is pending. */
async function processRound(database, cli, databaseUrl, count, receiver) {
  const total = PROCESS_REGISTRATIONS * PROCESS_EVENTS;
  const running = await Promise.all(Array.from({ length: count }, () => spawnServe(cli, databaseUrl)));
  try {
    const before = receiver.count();
    const started = performance.now();
    await database.query(
      `update passmint_deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = null, lease = null, first_attempt_at = null`,
    );
    for (;;) {
      const [{ n }] = await database.query(`select count(*)::int as n from passmint_deliveries where status = 'pending'`);
      if (n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const elapsed = performance.now() - started;
    if (receiver.count() - before < total) throw new Error('deliveries missing');
    return (elapsed * 1e6) / total;
  } finally {
    await Promise.all(running.map((process) => process.stop()));
  }
}

export async function benchServer({ rounds = 5 } = {}) {
  const { server, pkpass, core, cli, remove } = await load();
  const dir = mkdtempSync(join(tmpdir(), 'passmint-bench-server-'));
  const receiver = await startReceiver();
  const quiet = () => undefined;
  const delivery = { allowPrivateNetworks: true, pollMs: 5, batchSize: 8 };
  try {
    const rows = [];
    // --- 3 workers vs 1, PostgreSQL; and PostgreSQL vs PGlite with 1 -------------
    const lite = await server.openPglite();
    const liteSetup = await server.createServer({ database: lite, workers: false, delivery, secretKey: BENCH_SECRET_KEY, onError: quiet });
    await fill(liteSetup, receiver.url);
    const measured = await withPostgresDatabase(async (databaseUrl) => {
      const setup = await server.createServer({ databaseUrl, workers: false, delivery, secretKey: BENCH_SECRET_KEY, onError: quiet });
      await fill(setup, receiver.url);
      const worker = () => server.createServer({ databaseUrl, createFirstApiKey: false, delivery, secretKey: BENCH_SECRET_KEY, onError: quiet });
      const liteWorker = () => server.createServer({ database: lite, createFirstApiKey: false, delivery, secretKey: BENCH_SECRET_KEY, onError: quiet });
      const samples = { one: [], three: [], pg: [], pglite: [] };
      for (let round = 0; round < rounds; round++) {
        receiver.state.latencyMs = 50;
        const order = round % 2 === 0 ? [1, 3] : [3, 1];
        for (const workers of order) samples[workers === 1 ? 'one' : 'three'].push(await deliveryRound(setup.database, worker, workers, receiver));
        receiver.state.latencyMs = 1;
        const engines = round % 2 === 0 ? ['pg', 'pglite'] : ['pglite', 'pg'];
        for (const engine of engines) {
          samples[engine].push(engine === 'pg' ? await deliveryRound(setup.database, worker, 1, receiver) : await deliveryRound(lite, liteWorker, 1, receiver));
        }
      }
      await setup.close();
      return samples;
    });
    await liteSetup.close();
    await lite.close();
    // --- 3 `passmint serve` processes vs 1, PostgreSQL ------------------------------
    const processes = await withPostgresDatabase(async (databaseUrl) => {
      const setup = await server.createServer({ databaseUrl, workers: false, delivery, secretKey: BENCH_SECRET_KEY, onError: quiet });
      try {
        await fill(setup, receiver.url, PROCESS_REGISTRATIONS, PROCESS_EVENTS);
        const samples = { one: [], three: [] };
        receiver.state.latencyMs = 50;
        for (let round = 0; round < rounds; round++) {
          for (const count of round % 2 === 0 ? [1, 3] : [3, 1]) {
            samples[count === 1 ? 'one' : 'three'].push(await processRound(setup.database, cli, databaseUrl, count, receiver));
          }
        }
        return samples;
      } finally {
        await setup.close();
      }
    });
    const pairedMedian = (a, b) => median(a.map((value, index) => value / b[index]));
    rows.push({
      name: 'server: deliveries/s, 3 workers vs 1 (PostgreSQL, 24 registrations, receiver 50 ms)',
      kind: 'faster',
      ours: median(measured.three),
      baseline: median(measured.one),
      ratio: pairedMedian(measured.three, measured.one),
    });
    rows.push({
      name: 'server: deliveries/s, 3 `passmint serve` processes vs 1 (PostgreSQL, 96 registrations, receiver 50 ms)',
      kind: 'faster',
      ours: median(processes.three),
      baseline: median(processes.one),
      ratio: pairedMedian(processes.three, processes.one),
    });
    rows.push({
      name: 'server: deliveries/s, PGlite vs PostgreSQL (1 worker, receiver 1 ms)',
      kind: 'ratio',
      ours: median(measured.pglite),
      baseline: median(measured.pg),
      ratio: pairedMedian(measured.pglite, measured.pg),
    });

    // --- a pass created and signed through the API vs buildPass + packPass --------
    const pki = makePki(dir);
    const signer = await pkpass.createPassSigner({ certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem });
    const icon = noisePng(29, 29, false);
    const api = await withPostgresDatabase(async (databaseUrl) => {
      const service = await server.createServer({ databaseUrl, signer, workers: false, onError: quiet, publicUrl: 'https://passes.example.com' });
      const key = service.firstApiKey;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const base = 'https://passes.example.com';
      const call = (method, path, body) => service.fetch(new Request(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
      const { id } = await (await call('POST', '/v1/templates', JSON.stringify(template))).json();
      await call('PUT', `/v1/templates/${id}/files/icon.png`, icon);
      let serial = 0;
      const throughApi = async () => {
        const made = await (
          await call('POST', `/v1/templates/${id}/passes`, JSON.stringify({ values: { club: 'Chess', name: `N${serial++}`, level: 'gold' } }))
        ).json();
        const download = await call('GET', `/v1/passes/${PASS_TYPE}/${made.serialNumber}/pkpass`);
        if (download.status !== 200) throw new Error(`download answered ${download.status}`);
        await download.arrayBuffer();
      };
      const prepared = await pkpass.prepareFiles({ 'icon.png': icon });
      const compiled = core.compileTemplate({ ...template, id: 1 });
      const alone = async () => {
        const pass = core.buildPass(
          compiled,
          { club: 'Chess', name: `N${serial++}`, level: 'gold' },
          { teamIdentifier: TEAM, organizationName: 'passmint', webServiceURL: `${base}/wallet` },
        );
        await pkpass.packPass(pass, prepared, signer);
      };
      const samples = { api: [], alone: [] };
      for (let warm = 0; warm < 10; warm++) await throughApi(), await alone();
      const batch = 20;
      for (let round = 0; round < rounds * 3; round++) {
        for (const [name, fn] of round % 2 === 0
          ? [
              ['api', throughApi],
              ['alone', alone],
            ]
          : [
              ['alone', alone],
              ['api', throughApi],
            ]) {
          const started = performance.now();
          for (let index = 0; index < batch; index++) await fn();
          samples[name].push(((performance.now() - started) * 1e6) / batch);
        }
      }
      await service.close();
      return samples;
    });
    rows.push({
      name: 'server: pass created + signed via the API vs buildPass + packPass (PostgreSQL)',
      kind: 'ratio',
      ours: median(api.api),
      baseline: median(api.alone),
      ratio: pairedMedian(api.api, api.alone),
    });
    return rows;
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
    remove();
  }
}
