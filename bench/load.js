// `npm run load`: `passmint serve` under N concurrent clients, against bare
// baselines measured in the same run (bench/baselines/bare-service.js:
// node:http + pg + node:crypto, no passmint), on the same database.
//
//   node bench/load.js [--clients 16] [--seconds 3] [--rounds 3] [--pglite] [--no-write] [--profile DIR] [--functions]
//                      [--routes create,update,download,storm,template,deliveries] [--source DIR] [--processes 1]
//
// --source DIR: run the service built from DIR/src (another checkout, a change to try) instead of this tree's.
// --processes N: N `passmint serve` processes on the one database, the clients spread over them (the routes;
// deliveries run on one).
// --scale: N processes (--processes, default 2) against one, in the same run: each round drives the routes
// (create, download, template unless --routes) once with every client on the first process and once with
// the clients spread over all; no bare side. Written under `scaling` in results.json, with the CPU time
// per request of the service's processes, PostgreSQL and the clients, and what follows on paper.
//
// --profile DIR: both servers run with --cpu-prof, their profiles written to DIR when they stop.
// --functions: PostgreSQL times its PL/pgSQL functions (the triggers) on the run's database; printed at the end.
//
// PostgreSQL: DATABASE_URL or PASSMINT_BENCH_POSTGRES (default
// postgres://postgres@127.0.0.1:5432); a throwaway database is made for the
// run and dropped after it. `--pglite` runs the service on a PGlite folder
// instead (no bare baselines then: they need a PostgreSQL server).
//
// Per route: requests per second and p50/p99 latency of both sides; each
// round runs the service and the baseline for `--seconds` each (order
// alternating), after a one-second warm-up of each; a ratio is the median of
// the rounds' ratios. Deliveries: the service's worker and the bare loop each
// deliver the same events of 100 passes to one webhook, a receiver in this
// process answering each in 10 ms, timed from when the deliveries are made due
// until none is pending. The rows go into bench/results.json (replacing earlier `service:`
// rows), with the per-route figures under `load`.

import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PASS_TYPE, template } from './lib/bench-template.js';
import { bundleForNode } from './lib/bundle.js';
import { median } from './lib/measure.js';
import { mergeRows, storedRow } from './lib/sections.js';
import { writePki, noisePng, utf16Strings } from './lib/pki.js';
import { startReceiver as startBenchReceiver } from './lib/receiver.js';
import { call, percentile, serveEnv, withDatabase as withScratchDatabase } from './lib/service.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const PUBLIC_URL = 'https://passes.example.com';

// Passes made before the timed routes: updated and downloaded in turn, and the
// fetch storm's. The service allows 60 fetches a minute per pass token: 256
// passes keep a run of a few minutes under that.
const PASSES = 256;
const STORM_PASSES = 100;

// The deliveries row (issue 28): events to one webhook, a receiver answering each in 10 ms, and
// DELIVERY_PASSES passes × DELIVERY_EVENTS_PER_PASS events made through the API (updates of passes
// made before, the passes in turn), so order per pass is what the workers keep.
const DELIVERY_RECEIVER_MS = 10;
const DELIVERY_PASSES = 100;
const DELIVERY_EVENTS_PER_PASS = 20;
const valuesOf = (index) => ({ club: 'Chess', name: `Member ${index}`, level: index % 2 === 0 ? 'gold' : 'silver' });

/**
 * The template's files: icons of noise (incompressible), logos of one colour,
 * a German pass.strings — a package of about 16 KB, the size of a typical
 * pass (a large photograph-like set is what bench/pkpass.js measures).
 */
function serviceFiles() {
  return {
    'icon.png': noisePng(29, 29),
    'icon@2x.png': noisePng(58, 58),
    'logo.png': noisePng(160, 50, false),
    'logo@2x.png': noisePng(320, 100, false),
    'de.lproj/pass.strings': utf16Strings([
      ['Member', 'Mitglied'],
      ['Level', 'Stufe'],
    ]),
  };
}

// --- Processes ---------------------------------------------------------------------

/** The CLI bundled from `source`/src (node condition), under node_modules/.cache so pg and PGlite resolve. */
async function bundleCli(source = root) {
  const dir = `${root}node_modules/.cache/passmint-load-${process.pid}`;
  await bundleForNode({ cli: join(source, 'src/cli/main.ts') }, dir);
  return { cli: join(dir, 'cli.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Spawns a node process writing to a log file (as a deployed service writes
 * its request log: never held up by a reader) and resolves once the file
 * matches `ready`.
 */
async function start(args, ready, logFile, nodeOptions = []) {
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeOptions, ...args], { stdio: ['ignore', fd, fd], env: serveEnv() });
  closeSync(fd);
  let code;
  const exited = new Promise((resolve) => child.once('exit', (value) => resolve((code = value ?? 'signal'))));
  const stop = () => (child.kill('SIGTERM'), exited);
  for (const started = performance.now(); performance.now() - started < 60_000; ) {
    const output = readFileSync(logFile, 'utf8');
    const match = ready.exec(output);
    if (match !== null) return { match, stop, cpuMs: () => cpuMsOf(child.pid) };
    if (code !== undefined) throw new Error(`${args[0]} ended (${code}) before it was ready: ${output.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`${args[0]} was not ready within 60 s`);
}

/**
 * CPU time a process has used so far (user + system, every thread), in ms,
 * from /proc on Linux; `undefined` elsewhere. Per route it gives what a
 * request costs each server's process, whatever else the machine runs.
 */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = 100; // USER_HZ on Linux

/**
 * CPU time every PostgreSQL process on this machine has used so far (the
 * server, its backends, and — through the server's children's time — the
 * backends that have ended), in ms; `undefined` when /proc is not there or
 * shows none. Per route it gives what a request costs the database.
 */
function postgresCpuMs() {
  let total = 0;
  let found = false;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      if (!stat.includes(' (postgres) ')) continue;
      const fields = stat.split(') ')[1].split(' ');
      total += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      found = true;
    }
  } catch {
    return undefined;
  }
  return found ? (total * 1000) / CLOCK_TICKS : undefined;
}

/** CPU time this process (the clients, the receiver) has used so far, in ms. */
const clientCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const withDatabase = (adminUrl, run) => withScratchDatabase(adminUrl, 'passmint_load', run);

/** One statement on a connection of its own; its rows. */
async function sqlOnce(pg, databaseUrl, text) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

// --- The clients -------------------------------------------------------------------

/**
 * `clients` loops, each sending `next(client, count)` and waiting for the whole
 * answer before the next, for `seconds`. Each client connects from its own
 * loopback address (127.0.1.<client>), as devices do from theirs, so the
 * service's per-address rate limit applies per client. Requests per second
 * count 2xx answers; any other status is counted as an error.
 */
async function drive(bases, clients, seconds, next, onAnswer = undefined, perClient = undefined) {
  const baseOf = (client) => (Array.isArray(bases) ? bases[client % bases.length] : bases);
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies = [];
  const statuses = {};
  let errors = 0;
  let count = 0;
  let succeeded = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      // Time-boxed, or (perClient) a fixed number of requests each.
      for (let own = 0; perClient === undefined ? performance.now() < until : own < perClient; own++) {
        const at = performance.now();
        try {
          const { status, body } = await call(agent, baseOf(client), next(client, count++, own), `127.0.1.${client + 1}`);
          latencies.push(performance.now() - at);
          if (status >= 200 && status <= 299) {
            succeeded++;
            onAnswer?.(body);
          } else {
            errors++;
            statuses[status] = (statuses[status] ?? 0) + 1;
          }
        } catch (error) {
          errors++;
          statuses[error.code ?? 'error'] = (statuses[error.code ?? 'error'] ?? 0) + 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, rps: succeeded / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, statuses, latencies };
}

// --- The receiver of webhook deliveries ------------------------------------------------

/** The receiver of the delivery route: each delivery answered after `delayMs`. */
const startReceiver = (delayMs = DELIVERY_RECEIVER_MS) => startBenchReceiver({ delayMs });

/** Waits until `pending()` is 0; ms taken. */
async function drain(pending, limitMs = 120_000) {
  const started = performance.now();
  for (;;) {
    if ((await pending()) === 0) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`deliveries still pending after ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// --- The run ---------------------------------------------------------------------------

const ROUTES = [
  {
    key: 'create',
    name: 'create a pass (POST /v1/templates/{id}/passes: render, check, commit with pass.created)',
    baseline: 'one transaction, two INSERTs',
    min: 0.7,
  },
  { key: 'update', name: 'update a pass (PUT /v1/passes/{type}/{serial}/values, pass.updated)', baseline: 'one transaction, UPDATE + INSERT' },
  {
    key: 'download',
    name: 'download the signed .pkpass (GET /v1/passes/{type}/{serial}/pkpass, pass.downloaded)',
    baseline: 'SELECT, hand-written sign-and-zip (node:crypto), INSERT',
    min: 0.6,
  },
  {
    key: 'storm',
    name: 'Wallet fetch storm (GET /wallet/v1/passes/{type}/{serial}: every client fetches the same passes once each)',
    baseline: 'SELECT + the signed bytes of each version kept in memory',
  },
  { key: 'template', name: 'template get (GET /v1/templates/{id})', baseline: 'SELECT, the stored JSON' },
];

/**
 * Runs the load test; resolves with the bench rows and the per-route figures.
 *
 * @param {{ clients?: number, seconds?: number, rounds?: number, pglite?: boolean, profile?: string, functions?: boolean, routes?: string[], source?: string, processes?: number, log?: (line: string) => void }} [options]
 */
export async function benchService(options = {}) {
  const { clients = 16, seconds = 3, rounds = 3, pglite = false, processes = 1, log = () => undefined } = options;
  // The deliveries row's shape, as the run's settings record it.
  const registrations = 1;
  const events = DELIVERY_PASSES * DELIVERY_EVENTS_PER_PASS;
  const dir = mkdtempSync(join(tmpdir(), 'passmint-load-'));
  const { cli, remove } = await bundleCli(options.source);
  const receiver = await startReceiver();
  try {
    writePki(dir);
    const files = serviceFiles();
    for (const [path, bytes] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, 'files', path)), { recursive: true });
      writeFileSync(join(dir, 'files', path), bytes);
    }
    const serveArgs = (database, extra = []) => [
      cli,
      'serve',
      '--port',
      '0',
      ...database,
      '--public-url',
      PUBLIC_URL,
      '--cert',
      join(dir, 'pass.pem'),
      '--key',
      join(dir, 'pass.key'),
      '--wwdr',
      join(dir, 'wwdr.pem'),
      '--allow-private-webhooks',
      ...extra,
    ];
    const run = async (databaseUrl, pg) => {
      // --functions: PostgreSQL times each PL/pgSQL function (the triggers) on this database's connections.
      if (options.functions === true && databaseUrl !== undefined)
        await sqlOnce(pg, databaseUrl, `alter database ${new URL(databaseUrl).pathname.slice(1)} set track_functions = 'pl'`);
      const profile = options.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.profile];
      const database = databaseUrl === undefined ? ['--data', join(dir, 'pglite')] : ['--database-url', databaseUrl];
      // The routes run against `passmint serve` as deployed (its defaults); the deliveries against a
      // restart with --poll-ms 5, as often as the bare loop looks for due deliveries.
      let serve = await start(serveArgs(database), /listening on (http:\/\/\S+)[\s\S]*API key[^:]*: (\S+)\n/, join(dir, 'serve.log'), profile);
      const key = serve.match[2];
      // More processes on the same database (PostgreSQL only; a PGlite folder has one owner): clients take them in turn.
      const more = [];
      for (let index = 1; index < (databaseUrl === undefined ? 1 : processes); index++) {
        more.push(await start(serveArgs(database), /listening on (http:\/\/\S+)/, join(dir, `serve-${index}.log`), profile));
      }
      const restartPolling = async () => {
        await Promise.all([serve.stop(), ...more.splice(0).map((other) => other.stop())]);
        serve = await start(serveArgs(database, ['--poll-ms', '5']), /listening on (http:\/\/\S+)/, join(dir, 'serve-deliveries.log'), profile);
        const restarted = serve;
        return { base: serve.match[1], cpuMs: () => restarted.cpuMs() };
      };
      // Scaling (options.scale): one process against all of them, no bare side.
      const bare =
        databaseUrl === undefined || options.scale === true
          ? undefined
          : await start([join(root, 'bench/baselines/bare-service.js'), databaseUrl, dir], /listening on (http:\/\/\S+)/, join(dir, 'bare.log'), profile);
      try {
        const sumCpu = (list) => () =>
          list.reduce((sum, process) => (sum === undefined || process.cpuMs() === undefined ? undefined : sum + process.cpuMs()), 0);
        return await measureAll({
          serve: { base: serve.match[1], bases: [serve.match[1], ...more.map((other) => other.match[1])], key, cpuMs: sumCpu([serve, ...more]) },
          restartPolling,
          bare: bare && { base: bare.match[1], cpuMs: sumCpu([bare]) },
          databaseUrl,
          pg,
          clients,
          seconds,
          rounds,
          receiver,
          files,
          log,
          only: options.routes,
          scale: options.scale === true,
        });
      } finally {
        await Promise.all([serve.stop(), ...more.map((other) => other.stop()), bare?.stop()]);
        if (options.functions === true && databaseUrl !== undefined) {
          // The statistics reach the view when a backend ends or goes idle: read after the service stopped.
          const rows = await sqlOnce(
            pg,
            databaseUrl,
            `select funcname, calls::float8 as calls, total_time, self_time from pg_stat_user_functions order by total_time desc limit 12`,
          );
          log('PostgreSQL functions (track_functions = pl), the whole run:');
          for (const row of rows)
            log(
              `  ${row.funcname}: ${row.calls.toLocaleString('en')} calls, ${row.total_time.toFixed(0)} ms (self ${row.self_time.toFixed(0)} ms), ${((row.total_time / row.calls) * 1000).toFixed(1)} µs a call`,
            );
        }
      }
    };
    const adminUrl = process.env.DATABASE_URL ?? `${process.env.PASSMINT_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432'}/postgres`;
    const measured = pglite ? await run(undefined, undefined) : await withDatabase(adminUrl, run);
    return {
      ...measured,
      settings: { clients, seconds, rounds, database: pglite ? 'PGlite folder' : 'PostgreSQL', processes: pglite ? 1 : processes, registrations, events },
    };
  } finally {
    await receiver.close();
    remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureAll({ serve, restartPolling, bare, databaseUrl, pg, clients, seconds, rounds, receiver, files, log, only, scale = false }) {
  const auth = { authorization: `Bearer ${serve.key}`, 'content-type': 'application/json' };
  const setupAgent = new Agent({ keepAlive: true });
  const ours = async (method, path, body, headers = auth) => {
    const answer = await call(setupAgent, serve.base, { method, path, headers, body });
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 500)}`);
    return answer.body.length > 0 && answer.body[0] === 0x7b ? JSON.parse(answer.body.toString('utf8')) : answer.body;
  };
  const { id } = await ours('POST', '/v1/templates', JSON.stringify(template));
  for (const [path, bytes] of Object.entries(files)) await ours('PUT', `/v1/templates/${id}/files/${path}`, bytes, { authorization: auth.authorization });
  // Passes to update, download and fetch in turn (PASSES of them: see there).
  const made = [];
  for (let index = 0; index < PASSES; index++) {
    const pass = await ours('POST', `/v1/templates/${id}/passes`, JSON.stringify({ values: valuesOf(index) }));
    made.push({ serial: pass.serialNumber, token: new URL(pass.links.pkpass).searchParams.get('token') });
  }
  const bareSide = bare && (await bareSetup(bare.base, setupAgent));
  const created = { ours: [], bare: [] };
  const pick = (list, fallback, count) => (list.length > 0 ? list[count % list.length] : fallback[count % fallback.length]);
  const remember = (side) => (body) => {
    const answer = JSON.parse(body.toString('utf8'));
    created[side].push({ serial: answer.serialNumber, token: answer.authenticationToken ?? new URL(answer.links.pkpass).searchParams.get('token') });
  };
  // Passes per storm round: every client fetches each once, so a client address makes STORM_PASSES requests
  // a round and a pass token `clients` of them — within the service's rate limits (600 a minute per
  // address, 60 per token) for the warm-up and up to four rounds.
  const stormPasses = Math.max(10, Math.min(STORM_PASSES, Math.floor(500 / (rounds + 1))));
  const stormOffset = { ours: 0, bare: 0 };
  const passPath = (serial) => `/v1/passes/${PASS_TYPE}/${encodeURIComponent(serial)}`;
  const requests = {
    create: {
      ours: (_client, count) => ({ method: 'POST', path: `/v1/templates/${id}/passes`, headers: auth, body: JSON.stringify({ values: valuesOf(count) }) }),
      bare: (_client, count) => ({
        method: 'POST',
        path: '/passes',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ values: valuesOf(count), templateId: 1 }),
      }),
    },
    update: {
      ours: (_client, count) => ({
        method: 'PUT',
        path: `${passPath(made[count % made.length].serial)}/values`,
        headers: auth,
        body: JSON.stringify(valuesOf(count)),
      }),
      bare: (_client, count) => ({
        method: 'PUT',
        path: `/passes/${bareSide.made[count % bareSide.made.length].serial}/values`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(valuesOf(count)),
      }),
    },
    // Each download mostly a pass's first (the passes the create route made, in turn): what signing costs,
    // not a cache of signed packages.
    download: {
      ours: (_client, count) => ({ path: `${passPath(pick(created.ours, made, count).serial)}/pkpass`, headers: { authorization: auth.authorization } }),
      bare: (_client, count) => ({ path: `/passes/${pick(created.bare, bareSide.made, count).serial}/pkpass` }),
    },
    // A pass is on at most 20 devices (maxRegistrationsPerPass): 16 clients fetch one pass version each in turn.
    // After a push every device holding a pass fetches it: each client fetches the same passes in the
    // same order, once each, a new stretch of passes every round (see STORM_PASSES).
    storm: {
      ours: (_client, _count, own) => {
        const pass = pick(created.ours, made, stormOffset.ours + own);
        return { path: `/wallet/v1/passes/${PASS_TYPE}/${encodeURIComponent(pass.serial)}`, headers: { authorization: `ApplePass ${pass.token}` } };
      },
      bare: (_client, _count, own) => {
        const pass = pick(created.bare, bareSide.made, stormOffset.bare + own);
        return { path: `/wallet/passes/${pass.serial}`, headers: { authorization: `ApplePass ${pass.token}` } };
      },
    },
    template: {
      ours: () => ({ path: `/v1/templates/${id}`, headers: { authorization: auth.authorization } }),
      bare: () => ({ path: '/templates/1' }),
    },
  };

  const routes = [];
  for (const route of ROUTES.filter((entry) => only === undefined || only.includes(entry.key))) {
    // Scaling: 'ours' spreads the clients over every process, 'one' sends them all to the first.
    const sides = { ours: [], bare: [], one: [] };
    const names = scale ? ['ours', 'one'] : bare === undefined ? ['ours'] : ['ours', 'bare'];
    const onAnswer = (side) => (route.key === 'create' ? remember(side === 'one' ? 'ours' : side) : undefined);
    const baseFor = (side) => (side === 'ours' ? serve.bases : side === 'one' ? serve.bases[0] : bare.base);
    const requestFor = (side) => requests[route.key][side === 'one' ? 'ours' : side];
    const serverOf = (side) => (side === 'bare' ? bare : serve);
    const perClient = route.key === 'storm' ? stormPasses : undefined;
    const advance = (side) => {
      if (route.key === 'storm') stormOffset[side] += stormPasses;
    };
    for (const side of names) {
      await drive(baseFor(side), clients, 1, requestFor(side), onAnswer(side), perClient); // warm-up
      advance(side);
    }
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? names : [...names].reverse()) {
        const cpuBefore = serverOf(side).cpuMs();
        const pgBefore = postgresCpuMs();
        const clientBefore = clientCpuMs();
        const measured = await drive(baseFor(side), clients, seconds, requestFor(side), onAnswer(side), perClient);
        advance(side);
        const cpuAfter = serverOf(side).cpuMs();
        const pgAfter = postgresCpuMs();
        measured.cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
        measured.pgCpuMs = pgBefore === undefined || pgAfter === undefined ? undefined : pgAfter - pgBefore;
        measured.clientCpuMs = clientCpuMs() - clientBefore;
        sides[side].push(measured);
      }
    }
    const summary = (list) => {
      if (list.length === 0) return undefined;
      const latencies = list.flatMap((entry) => entry.latencies).sort((a, b) => a - b);
      const statuses = {};
      for (const entry of list) for (const [status, n] of Object.entries(entry.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
      const perRequest = (key) =>
        list.some((entry) => entry[key] === undefined) ? undefined : list.reduce((sum, entry) => sum + entry[key], 0) / latencies.length;
      return {
        rps: median(list.map((entry) => entry.rps)),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        cpuMsPerRequest: perRequest('cpuMs'),
        pgCpuMsPerRequest: perRequest('pgCpuMs'),
        clientCpuMsPerRequest: perRequest('clientCpuMs'),
        requests: latencies.length,
        errors: list.reduce((sum, entry) => sum + entry.errors, 0),
        statuses,
      };
    };
    const result = { ...route, ours: summary(sides.ours), bare: summary(sides.bare), one: summary(sides.one) };
    if (scale) result.ratio = median(sides.ours.map((entry, index) => entry.rps / sides.one[index].rps));
    else if (bare !== undefined) result.ratio = median(sides.ours.map((entry, index) => entry.rps / sides.bare[index].rps));
    routes.push(result);
    log(
      scale
        ? `${route.key}: ${serve.bases.length} processes ${sideText(result.ours)} vs one ${sideText(result.one)} → ${result.ratio.toFixed(2)}×`
        : describe(result),
    );
  }

  // --- Deliveries ----------------------------------------------------------------------------
  let deliveries;
  if (pg !== undefined && !scale && (only === undefined || only.includes('deliveries'))) {
    const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    try {
      const restarted = await restartPolling();
      serve.base = restarted.base;
      const cpuMs = { ours: restarted.cpuMs, bare: bare?.cpuMs };
      deliveries = await measureDeliveries({ db, ours, receiver, made, rounds, bare: bareSide !== undefined, cpuMs });
      log(describe(deliveries));
    } catch (error) {
      deliveries = { key: 'deliveries', name: 'webhook deliveries', failed: error.message };
      log(`deliveries: not measured (${error.message})`);
    } finally {
      await db.end();
    }
  }
  setupAgent.destroy();
  // Scaling: what one commit that takes a counter row costs here (the event counter every create's commit takes).
  const counterCommitMs = scale && pg !== undefined ? await measureCounterCommit(pg, databaseUrl) : undefined;
  return { routes, deliveries, counterCommitMs };
}

/**
 * Milliseconds per commit of a transaction that bumps one counter row (an
 * UPDATE on its own, one connection, one after another, on a scratch table of
 * the run's database): the most commits a second one such row allows is
 * about 1000 divided by it.
 */
async function measureCounterCommit(pg, databaseUrl, count = 500) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `create table if not exists load_counter (name text primary key, value bigint not null); insert into load_counter values ('c', 0) on conflict do nothing`,
    );
    const bump = { name: 'load_counter_bump', text: `update load_counter set value = value + 1 where name = 'c'`, values: [] };
    for (let index = 0; index < 50; index++) await client.query(bump);
    const started = performance.now();
    for (let index = 0; index < count; index++) await client.query(bump);
    return (performance.now() - started) / count;
  } finally {
    await client.query('drop table if exists load_counter').catch(() => undefined);
    await client.end();
  }
}

async function bareSetup(base, agent) {
  const post = async (path, body) =>
    JSON.parse(
      (await call(agent, base, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).body.toString('utf8'),
    );
  await post('/templates', template);
  const made = [];
  for (let index = 0; index < PASSES; index++) {
    const pass = await post('/passes', { values: valuesOf(index), templateId: 1 });
    made.push({ serial: pass.serialNumber, token: pass.authenticationToken });
  }
  return { made };
}

/**
 * Deliveries per second to one webhook: DELIVERY_PASSES × DELIVERY_EVENTS_PER_PASS
 * events (the passes in turn) made due at once, timed until none is pending,
 * to a receiver answering each in 10 ms — the service's worker on its own
 * tables (16 at once to one registration, its default), the bare loop on
 * `bare_*` (16 in flight, the oldest pending delivery of each pass). The
 * service's outbox is filled through its API (the webhook registered and
 * verified, `made` passes updated) and, for each round, made due again by
 * resetting its rows as the service queues them (each pass's oldest due,
 * its later ones parked): the bench's one reach into the service's schema.
 */
async function measureDeliveries({ db, ours, receiver, made, rounds, bare, cpuMs }) {
  const passes = made.slice(0, DELIVERY_PASSES);
  if (passes.length < DELIVERY_PASSES) throw new Error(`needs ${DELIVERY_PASSES} passes, has ${passes.length}`);
  const before = await db.query(`select count(*)::int as n from passmint_deliveries`);
  const registration = await ours('POST', '/v1/webhooks', JSON.stringify({ url: `${receiver.url}/one` }));
  if (registration.state !== 'enabled') throw new Error('the bench webhook registration was not verified');
  for (let round = 0; round < DELIVERY_EVENTS_PER_PASS; round++) {
    for (const [index, pass] of passes.entries()) {
      await ours('PUT', `/v1/passes/${PASS_TYPE}/${encodeURIComponent(pass.serial)}/values`, JSON.stringify(valuesOf(index + round * 1000)));
    }
  }
  const total = DELIVERY_PASSES * DELIVERY_EVENTS_PER_PASS;
  const [{ n }] = (await db.query(`select count(*)::int as n from passmint_deliveries`)).rows;
  if (n - before.rows[0].n !== total) throw new Error(`expected ${total} new deliveries, found ${n - before.rows[0].n}`);
  // The columns a claim sets, whichever the schema has: all cleared when the rows are made due again.
  const { rows: columns } = await db.query(`select column_name from information_schema.columns where table_name = 'passmint_deliveries'`);
  const has = (column) => columns.some((row) => row.column_name === column);
  const clear = ['locked_until', 'lease', 'claimed_by', 'first_attempt_at', 'delivered_at', 'last_status', 'last_error'].filter(has);
  const pendingOurs = async () => (await db.query(`select count(*)::int as n from passmint_deliveries where status = 'pending'`)).rows[0].n;
  await drain(pendingOurs);
  if (bare) {
    const [{ id: registrationId }] = (
      await db.query(`insert into bare_registrations (url, secret) values ($1 || '/bare', 'whsec_bench_bare') returning id`, [receiver.url])
    ).rows;
    const { rows: events } = await db.query(
      `insert into bare_events (type, data)
       select 'pass.updated', jsonb_build_object('serialNumber', 'S' || (g % $2), 'passTypeIdentifier', $1::text) from generate_series(0, $3 - 1) g
       order by g returning id, data ->> 'serialNumber' as serial`,
      [PASS_TYPE, DELIVERY_PASSES, total],
    );
    await db.query(
      `insert into bare_deliveries (registration_id, event_id, pass_key, status) select $1, x.id, x.serial, 'delivered' from unnest($2::bigint[], $3::text[]) as x(id, serial) order by x.id`,
      [registrationId, events.map((event) => event.id), events.map((event) => event.serial)],
    );
  }
  const sides = { ours: [], bare: [] };
  // Per round and side: deliveries a second, and the CPU time per delivery of the side's process and of PostgreSQL.
  const cpu = { ours: [], bare: [] };
  const rate = (ms) => total / (ms / 1000);
  for (let round = 0; round < rounds; round++) {
    for (const side of bare ? (round % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours']) : ['ours']) {
      const received = receiver.count();
      const cpuBefore = { side: cpuMs?.[side]?.(), pg: postgresCpuMs() };
      if (side === 'ours') {
        // Pending again, each pass's oldest due now and its later ones parked behind it, as the service queues them.
        await db.query(
          `update passmint_deliveries d set status = 'pending', attempts = 0,
                  next_attempt_at = ${has('pass_key') ? `case when exists (select 1 from passmint_deliveries o where o.webhook_id = d.webhook_id and o.pass_key = d.pass_key and o.status = 'delivered' and o.event_seq < d.event_seq) then 'infinity'::timestamptz else now() end` : 'now()'}${clear.map((column) => `, ${column} = null`).join('')}
            where status = 'delivered'`,
        );
        sides.ours.push(rate(await drain(pendingOurs)));
      } else {
        await db.query(`update bare_deliveries set status = 'pending', attempts = 0, locked_until = null, delivered_at = null`);
        sides.bare.push(rate(await drain(async () => (await db.query(`select count(*)::int as n from bare_deliveries where status = 'pending'`)).rows[0].n)));
      }
      const cpuAfter = { side: cpuMs?.[side]?.(), pg: postgresCpuMs() };
      const per = (before, after) => (before === undefined || after === undefined ? undefined : (after - before) / total);
      cpu[side].push({ process: per(cpuBefore.side, cpuAfter.side), pg: per(cpuBefore.pg, cpuAfter.pg) });
      if (receiver.count() - received < total) throw new Error(`${side}: ${total - (receiver.count() - received)} deliveries did not reach the receiver`);
    }
  }
  const medianOf = (list) => (list.some((value) => value === undefined) ? undefined : median(list));
  const summary = (list, used) =>
    list.length === 0
      ? undefined
      : {
          rps: median(list),
          requests: total * list.length,
          errors: 0,
          statuses: {},
          cpuMsPerRequest: medianOf(used.map((entry) => entry.process)),
          pgCpuMsPerRequest: medianOf(used.map((entry) => entry.pg)),
        };
  return {
    key: 'deliveries',
    name: `webhook deliveries to one webhook (${total.toLocaleString('en')} events of ${DELIVERY_PASSES} passes, receiver answering in ${DELIVERY_RECEIVER_MS} ms; order kept per pass)`,
    baseline: 'claim (FOR UPDATE SKIP LOCKED, the oldest pending per pass, 16 in flight), POST, record',
    min: 0.8,
    ours: summary(sides.ours, cpu.ours),
    bare: summary(sides.bare, cpu.bare),
    ...(bare ? { ratio: median(sides.ours.map((value, index) => value / sides.bare[index])) } : {}),
  };
}

// --- Output ------------------------------------------------------------------------------

const perSecond = (value) => `${Math.round(value).toLocaleString('en')}/s`;
const ms = (value) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : '—');
const sideText = (side) =>
  side === undefined
    ? '—'
    : `${perSecond(side.rps)}${side.p50 === undefined ? '' : ` · p50 ${ms(side.p50)} · p99 ${ms(side.p99)}`}${side.cpuMsPerRequest === undefined ? '' : ` · CPU ${side.cpuMsPerRequest.toFixed(2)} ms/request`}${side.pgCpuMsPerRequest === undefined ? '' : ` · PostgreSQL ${side.pgCpuMsPerRequest.toFixed(2)} ms/request`}${side.errors > 0 ? ` · ${side.errors} errors ${JSON.stringify(side.statuses)}` : ''}`;

function describe(result) {
  if (result.failed !== undefined) return `${result.name}: not measured (${result.failed})`;
  return `${result.name}: ${sideText(result.ours)} vs bare ${sideText(result.bare)}${result.ratio === undefined ? '' : ` → ${result.ratio.toFixed(2)}×`}`;
}

/**
 * The bench rows (the shape of bench/run.js's, results.json's) of a load run.
 *
 * @param {{ routes: object[], deliveries?: object }} measured
 */
export function serviceRows({ routes, deliveries }) {
  const rows = [];
  for (const result of [...routes, ...(deliveries === undefined ? [] : [deliveries])]) {
    const name = `service: ${result.name} vs bare: ${result.baseline}${result.min === undefined ? ' (info)' : ''}`;
    if (result.failed !== undefined || result.ours === undefined) {
      rows.push({
        name,
        ours: '—',
        baseline: '—',
        oursValue: NaN,
        baselineValue: NaN,
        ratio: NaN,
        ratioText: '—',
        target: result.min === undefined ? '—' : `≥ ${result.min}×`,
        pass: result.min === undefined ? null : false,
      });
      continue;
    }
    const hasBaseline = result.bare !== undefined && result.ratio !== undefined;
    const failedRequests = result.ours.errors > 0 || (result.bare?.errors ?? 0) > 0;
    rows.push({
      name,
      ours: sideText(result.ours),
      baseline: hasBaseline ? sideText(result.bare) : '—',
      oursValue: 1e9 / result.ours.rps,
      baselineValue: hasBaseline ? 1e9 / result.bare.rps : NaN,
      ratio: hasBaseline ? result.ratio : NaN,
      ratioText: hasBaseline ? `${result.ratio.toFixed(2)}×` : '—',
      target: result.min === undefined ? '—' : `≥ ${result.min}×`,
      // Without a baseline (PGlite) there is no ratio to judge: the figures are information.
      pass: result.min === undefined || !hasBaseline ? null : !failedRequests && result.ratio >= result.min,
    });
  }
  return rows;
}

/** A number as stored in results.json: rounded, null where it was not measured. */
const round = (value, digits = 3) => (value === undefined || !Number.isFinite(value) ? null : Number(value.toFixed(digits)));

/** One side of a route (the service, a bare baseline, one or all processes) as stored in results.json. */
const side = (value) =>
  value === undefined
    ? null
    : {
        rps: Math.round(value.rps),
        p50Ms: round(value.p50, 2),
        p99Ms: round(value.p99, 2),
        cpuMsPerRequest: round(value.cpuMsPerRequest),
        pgCpuMsPerRequest: round(value.pgCpuMsPerRequest),
        clientCpuMsPerRequest: round(value.clientCpuMsPerRequest),
        requests: value.requests,
        errors: value.errors,
      };

/** What every stored run starts with: the command, when, where, how long, with which settings. */
const runHeader = (command, seconds, settings) => ({
  command,
  date: new Date().toISOString(),
  environment: environment(),
  seconds: Number(seconds.toFixed(1)),
  settings,
});

/** The per-route figures as stored under `load` in results.json. */
export function loadFigures({ routes, deliveries, settings }, seconds, command = 'npm run load') {
  return {
    ...runHeader(command, seconds, settings),
    routes: [...routes, ...(deliveries === undefined ? [] : [deliveries])].map((result) => ({
      route: result.key,
      name: result.name,
      baseline: result.baseline,
      ours: side(result.ours),
      bare: side(result.bare),
      ratio: result.ratio === undefined ? null : Number(result.ratio.toFixed(3)),
      target: result.min === undefined ? null : `≥ ${result.min}×`,
      ...(result.failed === undefined ? {} : { failed: result.failed }),
    })),
  };
}

/**
 * The figures of a scaling run (`--scale`), as stored under `scaling` in
 * results.json: per route, all clients on one process against the clients
 * spread over every process, the CPU time per request of the service's
 * processes, of PostgreSQL and of the clients, and what follows on paper: a
 * process's ceiling with a core of its own (1000 ms / its CPU per request),
 * and the PostgreSQL cores that N processes at their ceilings keep busy.
 */
export function scalingFigures({ routes, settings, counterCommitMs }, seconds, command = 'node bench/load.js --scale') {
  const paper = (one, processes, key) => {
    if (one?.cpuMsPerRequest === undefined || one.pgCpuMsPerRequest === undefined) return null;
    const ceiling = 1000 / one.cpuMsPerRequest;
    // Creates: every commit takes the event counter's row. Even with one create per commit (no batching at
    // all), N processes at their ceilings need N × ceiling commits a second; the row allows 1000 / counterCommitMs.
    const counterBound = key === 'create' && counterCommitMs !== undefined ? 1000 / counterCommitMs / ceiling : undefined;
    return {
      // Cores the one-process run kept busy, by whom: where the machine's cores went.
      coresServe: round((one.cpuMsPerRequest * one.rps) / 1000, 2),
      coresPostgres: round((one.pgCpuMsPerRequest * one.rps) / 1000, 2),
      coresClients: round(((one.clientCpuMsPerRequest ?? 0) * one.rps) / 1000, 2),
      ceilingPerProcess: Math.round(ceiling),
      postgresCoresAtCeiling: round((processes * one.pgCpuMsPerRequest) / one.cpuMsPerRequest, 2),
      // With a core each (and PostgreSQL's cores above), N processes do N times one's work, up to what the
      // event counter allows creates without batching (batches of several creates per commit lift that).
      ratio: round(counterBound === undefined ? processes : Math.min(processes, counterBound), 2),
      ...(counterBound === undefined ? {} : { ratioOneCreatePerCommit: round(counterBound, 2) }),
    };
  };
  return {
    ...runHeader(command, seconds, settings),
    routes: routes.map((result) => ({
      route: result.key,
      name: result.name,
      one: side(result.one),
      all: side(result.ours),
      ratio: result.ratio === undefined ? null : Number(result.ratio.toFixed(3)),
      paper: paper(result.one, settings.processes, result.key),
    })),
    counterCommitMs: round(counterCommitMs),
  };
}

export function environment() {
  return `Node ${process.version}, V8 ${process.versions.v8}, ${process.platform}/${process.arch}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const started = performance.now();
  const scale = args.includes('--scale');
  const measured = await benchService({
    clients: option('clients', 16),
    seconds: option('seconds', 3),
    rounds: option('rounds', 3),
    pglite: args.includes('--pglite'),
    ...(args.includes('--profile') ? { profile: args[args.indexOf('--profile') + 1] } : {}),
    functions: args.includes('--functions'),
    ...(args.includes('--routes') ? { routes: args[args.indexOf('--routes') + 1].split(',') } : scale ? { routes: ['create', 'download', 'template'] } : {}),
    ...(args.includes('--source') ? { source: args[args.indexOf('--source') + 1] } : {}),
    processes: option('processes', scale ? 2 : 1),
    scale,
    log: (line) => console.log(line),
  });
  const seconds = (performance.now() - started) / 1000;
  if (scale) {
    const figures = scalingFigures(measured, seconds);
    console.log(
      `\npassmint load --scale — ${environment()}, ${measured.settings.clients} clients, ${measured.settings.processes} processes against 1, ${seconds.toFixed(0)} s`,
    );
    for (const route of figures.routes)
      console.log(
        `${route.route}: ${route.all?.rps}/s vs ${route.one?.rps}/s → ${route.ratio}× (on paper, with cores to spare: ${JSON.stringify(route.paper)})`,
      );
    console.log(`a commit that bumps one counter row: ${figures.counterCommitMs} ms`);
    if (!args.includes('--no-write')) {
      const path = fileURLToPath(new URL('./results.json', import.meta.url));
      const results = JSON.parse(readFileSync(path, 'utf8'));
      results.scaling = figures;
      writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
      const { writeFigures } = await import('../scripts/docs-figures.js');
      const rewritten = writeFigures();
      console.log(`\nWritten to bench/results.json (\`scaling\`)${rewritten.length > 0 ? `; figures regenerated in ${rewritten.join(', ')}` : ''}.`);
    }
    process.exit(0);
  }
  const rows = serviceRows(measured);
  console.log(
    `\npassmint load — ${environment()}, ${measured.settings.clients} clients, ${measured.settings.processes} serve process(es), ${measured.settings.database}, ${seconds.toFixed(0)} s`,
  );
  console.log('| route | passmint serve | bare baseline | ratio | target | result |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows)
    console.log(
      `| ${row.name} | ${row.ours} | ${row.baseline} | ${row.ratioText} | ${row.target} | ${row.pass === null ? 'info' : row.pass ? 'PASS' : 'FAIL'} |`,
    );
  if (!args.includes('--no-write')) {
    const path = fileURLToPath(new URL('./results.json', import.meta.url));
    const results = JSON.parse(readFileSync(path, 'utf8'));
    const fresh = rows.map(storedRow);
    const figures = loadFigures(measured, seconds);
    if (args.includes('--routes')) {
      // Only some routes ran: their rows and figures replace the same routes' (matched by the row's name up to
      // its parenthesis, and by route key); the others stay as the last full run left them.
      const stem = (name) => name.split(' (')[0];
      const ran = fresh.map((row) => stem(row.name));
      const rerun = (row) => ran.some((name) => name.startsWith(stem(row.name)) || stem(row.name).startsWith(name));
      results.rows = mergeRows(results.rows, [...results.rows.filter((row) => row.name.startsWith('service:') && !rerun(row)), ...fresh], ['service']);
      // The run header stays the full run's, but for the deliveries' shape; each route measured here says when and how.
      const measuredRoutes = new Set(figures.routes.map((route) => route.route));
      const previous = results.load ?? figures;
      results.load = {
        ...previous,
        settings: { ...previous.settings, registrations: figures.settings.registrations, events: figures.settings.events },
        routes: [
          ...previous.routes.filter((route) => !measuredRoutes.has(route.route)),
          ...figures.routes.map((route) => ({ ...route, run: `${figures.command} ${args.join(' ')}, ${figures.date}, ${figures.environment}` })),
        ],
      };
    } else {
      results.rows = mergeRows(results.rows, fresh, ['service']);
      results.load = figures;
    }
    writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
    const { writeFigures } = await import('../scripts/docs-figures.js');
    const rewritten = writeFigures();
    console.log(
      `\nWritten to bench/results.json (service rows and \`load\`)${rewritten.length > 0 ? `; figures regenerated in ${rewritten.join(', ')}` : ''}.`,
    );
  }
}
