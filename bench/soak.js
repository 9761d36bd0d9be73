// The soak (issue 28): one `passmint serve` process (the CLI, signing) under a
// steady mixed load for a long while, its resident memory (RSS) sampled every
// 10 s — to show it levels off under the configured caches (the signed-pass
// cache, 64 MiB by default; prepared template files, 128 MiB; the rate
// limiters' and repeat windows' keys, 100,000 each) instead of growing with
// the requests served.
//
//   node bench/soak.js [--minutes 30] [--rate 10] [--pglite] [--no-write]
//
// Every second, `--rate` each of: creates (POST /v1/templates/{id}/passes),
// updates of a pass's values, downloads of the signed .pkpass of the pass
// just updated (a new version each: a cache entry each), Wallet fetches
// (GET /wallet/v1/passes/…, ApplePass token, from 8 client addresses within
// the per-address and per-token rates) — every change an event delivered to
// two webhook registrations on a receiver in this process; /metrics scraped
// at each sample. On a throwaway PostgreSQL database (DATABASE_URL or
// PASSMINT_BENCH_POSTGRES, default postgres://postgres@127.0.0.1:5432) or,
// with --pglite, a PGlite folder (the database then lives in the process's
// memory too).
//
// Written under `soak` in bench/results.json (the samples, and whether the
// last third of the run grew less than 5 % over the middle third); the RSS
// curve in docs/performance.md is generated from there (scripts/docs-figures.js).

import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PASS_TYPE, template } from './lib/bench-template.js';
import { bundleForNode } from './lib/bundle.js';
import { environment } from './load.js';
import { writePki, noisePng, utf16Strings } from './lib/pki.js';
import { startReceiver as startBenchReceiver } from './lib/receiver.js';
import { call, rssMiB, serveEnv, withDatabase as withScratchDatabase } from './lib/service.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const SAMPLE_MS = 10_000;
const ADDRESSES = 8;

const valuesOf = (index) => ({ club: 'Chess', name: `Member ${index}`, level: index % 2 === 0 ? 'gold' : 'silver' });

const startReceiver = () => startBenchReceiver();

const withDatabase = (adminUrl, run) => withScratchDatabase(adminUrl, 'passmint_soak', run);

/**
 * Runs the soak; resolves with what results.json stores under `soak`.
 *
 * @param {{ minutes?: number, rate?: number, pglite?: boolean, log?: (line: string) => void }} [options]
 */
export async function soak(options = {}) {
  const { minutes = 30, rate = 10, pglite = false, log = () => undefined } = options;
  const dir = mkdtempSync(join(tmpdir(), 'passmint-soak-'));
  const bundleDir = `${root}node_modules/.cache/passmint-soak-${process.pid}`;
  await bundleForNode({ cli: join(root, 'src/cli/main.ts') }, bundleDir);
  const receiver = await startReceiver();
  const started = performance.now();
  try {
    writePki(dir);
    const run = async (databaseUrl) => {
      const logFile = join(dir, 'serve.log');
      const fd = openSync(logFile, 'w');
      const database = databaseUrl === undefined ? ['--data', join(dir, 'pglite')] : ['--database-url', databaseUrl];
      const args = [join(bundleDir, 'cli.js'), 'serve', '--port', '0', ...database, '--public-url', 'https://passes.example.com'];
      args.push('--cert', join(dir, 'pass.pem'), '--key', join(dir, 'pass.key'), '--wwdr', join(dir, 'wwdr.pem'), '--allow-private-webhooks');
      const child = spawn(process.execPath, args, { stdio: ['ignore', fd, fd], env: serveEnv() });
      closeSync(fd);
      let exited;
      child.once('exit', (code) => (exited = code ?? 'signal'));
      let match;
      for (const at = performance.now(); match === undefined; ) {
        match = /listening on (http:\/\/\S+)[\s\S]*API key[^:]*: (\S+)\n/.exec(readFileSync(logFile, 'utf8')) ?? undefined;
        if (exited !== undefined) throw new Error(`passmint serve ended (${exited}): ${readFileSync(logFile, 'utf8').slice(-2000)}`);
        if (performance.now() - at > 60_000) throw new Error('passmint serve was not ready within 60 s');
        if (match === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      try {
        return await load(child.pid, match[1], match[2]);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => (exited === undefined ? child.once('exit', resolve) : resolve()));
      }
    };

    const load = async (pid, base, key) => {
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const agent = new Agent({ keepAlive: true, maxSockets: 64 });
      const api = async (method, path, body, headers = auth) => {
        const answer = await call(agent, base, { method, path, headers, body });
        if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
        return answer.body.length > 0 && answer.body[0] === 0x7b ? JSON.parse(answer.body.toString('utf8')) : answer.body;
      };
      const { id } = await api('POST', '/v1/templates', JSON.stringify(template));
      const files = {
        'icon.png': noisePng(29, 29),
        'icon@2x.png': noisePng(58, 58),
        'logo.png': noisePng(160, 50, false),
        'de.lproj/pass.strings': utf16Strings([['Member', 'Mitglied']]),
      };
      for (const [path, bytes] of Object.entries(files)) await api('PUT', `/v1/templates/${id}/files/${path}`, bytes, { authorization: auth.authorization });
      for (const name of ['a', 'b']) {
        const registration = await api('POST', '/v1/webhooks', JSON.stringify({ url: `${receiver.url}/${name}` }));
        if (registration.state !== 'enabled') throw new Error('a soak webhook registration was not verified');
      }
      const passes = [];
      const passPath = (serial) => `/v1/passes/${PASS_TYPE}/${encodeURIComponent(serial)}`;
      const remember = (pass) => passes.push({ serial: pass.serialNumber, token: new URL(pass.links.pkpass).searchParams.get('token') });
      for (let index = 0; index < 100; index++) remember(await api('POST', `/v1/templates/${id}/passes`, JSON.stringify({ values: valuesOf(index) })));

      const counts = { requests: 0, errors: 0, skipped: 0, statuses: {} };
      let inFlight = 0;
      const fire = (request, localAddress, onBody) => {
        // Never more than 64 in flight: a slow moment is skipped, not piled up.
        if (inFlight >= 64) {
          counts.skipped++;
          return;
        }
        inFlight++;
        call(agent, base, request, localAddress)
          .then(({ status, body }) => {
            counts.requests++;
            if (status >= 200 && status < 300) onBody?.(body);
            else {
              counts.errors++;
              counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
            }
          })
          .catch((error) => {
            counts.errors++;
            counts.statuses[error.code ?? 'error'] = (counts.statuses[error.code ?? 'error'] ?? 0) + 1;
          })
          .finally(() => inFlight--);
      };
      let tick = 0;
      const step = () => {
        tick++;
        const updated = passes[(tick * 7919) % passes.length];
        fire({ method: 'POST', path: `/v1/templates/${id}/passes`, headers: auth, body: JSON.stringify({ values: valuesOf(tick) }) }, undefined, (body) =>
          remember(JSON.parse(body.toString('utf8'))),
        );
        fire({ method: 'PUT', path: `${passPath(updated.serial)}/values`, headers: auth, body: JSON.stringify(valuesOf(tick + 1)) });
        // The pass updated a tick ago: a new version, a new signed package (the signed-pass cache fills).
        const downloaded = passes[((tick - 1) * 7919) % passes.length];
        fire({ path: `${passPath(downloaded.serial)}/pkpass`, headers: { authorization: auth.authorization } });
        // Wallet: a pass fetched at most once a minute per token at this rate when there are passes enough.
        const fetched = passes[(tick * 104_729) % passes.length];
        fire(
          { path: `/wallet/v1/passes/${PASS_TYPE}/${encodeURIComponent(fetched.serial)}`, headers: { authorization: `ApplePass ${fetched.token}` } },
          `127.0.2.${(tick % ADDRESSES) + 1}`,
        );
      };
      const samples = [];
      const scrape = async () => {
        const text = (await call(agent, base, { path: '/metrics', headers: { authorization: auth.authorization } })).body.toString('utf8');
        return Number(/^passmint_webhook_queue_pending (\S+)$/m.exec(text)?.[1] ?? NaN);
      };
      const t0 = performance.now();
      const sample = async () => {
        const pending = await scrape().catch(() => NaN);
        const entry = {
          seconds: Math.round((performance.now() - t0) / 1000),
          rssMiB: rssMiB(pid) ?? null,
          requests: counts.requests,
          errors: counts.errors,
          delivered: receiver.count(),
          pending: Number.isFinite(pending) ? pending : null,
        };
        samples.push(entry);
        log(
          `${String(entry.seconds).padStart(5)} s  RSS ${entry.rssMiB} MiB  ${entry.requests} requests (${entry.errors} errors, ${counts.skipped} skipped)  ${entry.delivered} delivered, ${entry.pending} pending`,
        );
      };
      await sample();
      const interval = 1000 / rate;
      let next = performance.now();
      let nextSample = t0 + SAMPLE_MS;
      const until = t0 + minutes * 60_000;
      while (performance.now() < until) {
        step();
        next += interval;
        if (performance.now() >= nextSample) {
          nextSample += SAMPLE_MS;
          await sample();
        }
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await sample();
      agent.destroy();
      return { samples, counts, passes: passes.length };
    };

    const adminUrl = process.env.DATABASE_URL ?? `${process.env.PASSMINT_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432'}/postgres`;
    const measured = pglite ? await run(undefined) : await withDatabase(adminUrl, run);
    return summarize(measured, { minutes, rate, pglite }, (performance.now() - started) / 1000);
  } finally {
    await receiver.close();
    rmSync(bundleDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What results.json keeps of a soak: the samples and whether the last third grew under 5 % over the middle third. */
export function summarize({ samples, counts, passes }, { minutes, rate, pglite }, seconds, command = 'node bench/soak.js') {
  const rss = samples.map((entry) => entry.rssMiB).filter((value) => typeof value === 'number');
  const third = Math.max(1, Math.floor(rss.length / 3));
  const middleMax = Math.max(...rss.slice(third, 2 * third));
  const lastMax = Math.max(...rss.slice(2 * third));
  const growth = (lastMax - middleMax) / middleMax;
  return {
    command,
    date: new Date().toISOString(),
    environment: environment(),
    seconds: Number(seconds.toFixed(1)),
    settings: { minutes, ratePerKind: rate, database: pglite ? 'PGlite folder' : 'PostgreSQL', sampleSeconds: SAMPLE_MS / 1000 },
    requests: counts.requests,
    errors: counts.errors,
    statuses: counts.statuses,
    skipped: counts.skipped,
    passes,
    delivered: samples.at(-1)?.delivered ?? 0,
    rss: {
      firstMiB: rss[0] ?? null,
      maxMiB: Math.max(...rss),
      lastMiB: rss.at(-1) ?? null,
      middleThirdMaxMiB: middleMax,
      lastThirdMaxMiB: lastMax,
      lastThirdGrowth: Number(growth.toFixed(4)),
      levelled: growth < 0.05,
    },
    samples,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const figures = await soak({ minutes: option('minutes', 30), rate: option('rate', 10), pglite: args.includes('--pglite'), log: (line) => console.log(line) });
  const { rss } = figures;
  console.log(
    `\nsoak: ${figures.requests} requests (${figures.errors} errors), ${figures.delivered} deliveries; RSS ${rss.firstMiB} → max ${rss.maxMiB} MiB, last third ${(rss.lastThirdGrowth * 100).toFixed(1)} % over the middle third: ${rss.levelled ? 'levelled off' : 'STILL GROWING'}`,
  );
  if (!args.includes('--no-write')) {
    const path = fileURLToPath(new URL('./results.json', import.meta.url));
    const results = JSON.parse(readFileSync(path, 'utf8'));
    results.soak = figures;
    writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
    const { writeFigures } = await import('../scripts/docs-figures.js');
    const rewritten = writeFigures();
    console.log(`Written to bench/results.json (\`soak\`)${rewritten.length > 0 ? `; figures regenerated in ${rewritten.join(', ')}` : ''}.`);
  }
  process.exit(rss.levelled ? 0 : 1);
}
