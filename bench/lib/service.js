// What the benches that drive a running `passmint serve` share: an HTTP call on
// a keep-alive agent, a throwaway PostgreSQL database, a spawned service, its
// resident memory, percentiles, EXPLAIN of noted statements.

import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * The secret key the benches' services seal secrets with (PASSMINT_SECRET_KEY of a spawned `passmint serve`,
 * createServer's `secretKey`): on PostgreSQL, a service without one registers no webhook.
 */
export const BENCH_SECRET_KEY = 'mZ/jmnKzpVC++7x3dCawoGuRlObGbcgA0zqvqP6sFKU=';

/** The environment of a spawned `passmint serve`: this process's, with {@link BENCH_SECRET_KEY}. */
export const serveEnv = () => ({ ...process.env, PASSMINT_SECRET_KEY: BENCH_SECRET_KEY });

/** The PostgreSQL server's `postgres` database: DATABASE_URL, or PASSMINT_BENCH_POSTGRES's, or the local one. */
export const adminDatabaseUrl = () => process.env.DATABASE_URL ?? `${process.env.PASSMINT_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432'}/postgres`;

/** One HTTP request on a keep-alive agent (from `localAddress` when given): status and body bytes. */
export function call(agent, base, { method = 'GET', path, headers = {}, body }, localAddress = undefined) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const sent = httpRequest(
      `${base}${path}`,
      { method, agent, localAddress, headers: { ...headers, ...(payload === undefined ? {} : { 'content-length': payload.length }) } },
      (answer) => {
        const chunks = [];
        answer.on('data', (chunk) => chunks.push(chunk));
        answer.on('end', () => resolve({ status: answer.statusCode, body: Buffer.concat(chunks), headers: answer.headers }));
        answer.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

/** Runs `run(url, pg)` on a database made for it (named `prefix_pid_time`) on the server of `adminUrl`; dropped after. */
export async function withDatabase(adminUrl, prefix, run) {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.href, pg);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** Resident memory of a process in MiB (Linux /proc), or `undefined`. */
export function rssMiB(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number((Number(match[1]) / 1024).toFixed(1));
  } catch {
    return undefined;
  }
}

/** GETs `path` one at a time, `gapMs` apart, until `until()`; the latencies (ms), sorted. */
export async function getLoop(agent, base, path, headers, until, gapMs = 20) {
  const latencies = [];
  while (!until()) {
    const at = performance.now();
    const answer = await call(agent, base, { path, headers });
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
    latencies.push(performance.now() - at);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return latencies.sort((a, b) => a - b);
}

/** The `p`th percentile of sorted numbers. */
export const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);

/**
 * Spawns `passmint serve` (the bundled CLI `cli`) on `databaseUrl`, signing with
 * dir's pass.pem, pass.key and wwdr.pem, its output in dir/NAME.log; resolves
 * once it listens: its base URL, first API key, pid, start time, and `stop`.
 * `nodeArgs` go to node before the script (`--cpu-prof`, say).
 */
export async function serve(cli, dir, databaseUrl, name, extra = [], nodeArgs = []) {
  const logFile = join(dir, `${name}.log`);
  const fd = openSync(logFile, 'w');
  const args = [cli, 'serve', '--port', '0', '--database-url', databaseUrl, '--public-url', 'https://passes.example.com'];
  args.push('--cert', join(dir, 'pass.pem'), '--key', join(dir, 'pass.key'), '--wwdr', join(dir, 'wwdr.pem'), '--allow-private-webhooks', ...extra);
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, ...args], { stdio: ['ignore', fd, fd], env: serveEnv() });
  closeSync(fd);
  let exited;
  child.once('exit', (code) => (exited = code ?? 'signal'));
  for (;;) {
    const log = readFileSync(logFile, 'utf8');
    const match = /listening on (http:\/\/\S+)/.exec(log);
    // The signing line comes last in a start's output.
    if (match !== null && /\nSigning as /.test(log)) {
      return {
        base: match[1],
        key: /API key[^:]*: (\S+)\n/.exec(log)?.[1],
        pid: child.pid,
        logFile,
        startMs: performance.now() - started,
        stop: () => (exited !== undefined ? Promise.resolve() : new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))),
      };
    }
    if (exited !== undefined) throw new Error(`passmint serve ended (${exited}): ${log.slice(-2000)}`);
    if (performance.now() - started > 120_000) throw new Error('passmint serve was not ready within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A SqlQueryable over one pg client, noting every statement it runs (for {@link explain}). */
export function queryable(client, noted) {
  return {
    async query(text, params = []) {
      noted?.push({ text, params });
      return (await client.query(text, params)).rows;
    },
    async exec(text) {
      await client.query(text);
    },
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of each statement noted, each in a transaction rolled back. */
export async function explain(client, noted) {
  const plans = [];
  for (const { text, params } of noted) {
    await client.query('begin');
    try {
      const rows = (await client.query(`explain (analyze, buffers) ${text}`, params)).rows;
      plans.push({ statement: text.replace(/\s+/g, ' ').trim(), plan: rows.map((row) => row['QUERY PLAN']).join('\n') });
    } catch (error) {
      plans.push({ statement: text.replace(/\s+/g, ' ').trim(), plan: `not explained: ${error.message}` });
    } finally {
      await client.query('rollback');
    }
  }
  return plans;
}
