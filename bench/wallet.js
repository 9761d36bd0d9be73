// Apple's web service and pushes (issue 12):
// - requests per second of the wallet handler's register and serials calls,
//   against a bare Fetch handler that only returns a `Response`, in the same run;
// - pushes per second of createApnsClient to a local HTTP/2 TLS stand-in for
//   APNs, against bare node:http2 requests on one session with the same
//   concurrency (same server, same TLS, same certificates from openssl).
//
// The library is bundled from src/ with the `node` condition, as Node resolves the package.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createSecureServer } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';
import { measureAsync, median, pairedRatio } from './lib/measure.js';

const root = fileURLToPath(new URL('../', import.meta.url));

async function load() {
  const dir = mkdtempSync(join(tmpdir(), 'passmint-bench-wallet-'));
  try {
    const bundle = await rolldown({
      input: { wallet: `${root}src/wallet/index.ts`, apns: `${root}src/apns/index.ts` },
      resolve: { extensionAlias: { '.js': ['.ts', '.js'] }, conditionNames: ['node', 'import', 'default'] },
      platform: 'node',
      logLevel: 'silent',
    });
    await bundle.write({ dir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
    await bundle.close();
    const [wallet, apns] = await Promise.all([import(pathToFileURL(join(dir, 'wallet.js')).href), import(pathToFileURL(join(dir, 'apns.js')).href)]);
    return { wallet, apns };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const type = 'pass.com.example.member';
const token = 'vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc';
const device = '6b7c2f1d0a9e4c3b8d7e6f5a4b3c2d1e';
const pushToken = '4a5f0e1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7';

async function handlerRows(wallet) {
  const store = wallet.createMemoryWalletStore();
  const pkpass = new Uint8Array(1024);
  const handler = wallet.createWalletHandler({
    store,
    findPass: () => ({ authenticationToken: token, lastModified: 1_764_000_000_000, pkpass }),
  });
  // A device holding 10 passes of the type, 5 of them changed since its tag.
  for (let index = 0; index < 10; index++) {
    await store.register({ deviceLibraryIdentifier: device, passTypeIdentifier: type, serialNumber: `S${index}`, pushToken });
  }
  const tag = (await store.updatedSince(device, type, undefined)).lastUpdated;
  for (let index = 0; index < 5; index++) await store.markUpdated(type, `S${index}`);

  const body = JSON.stringify({ pushToken });
  const registerUrl = `https://passes.example.com/v1/devices/${device}/registrations/${type}/S0`;
  const serialsUrl = `https://passes.example.com/v1/devices/${device}/registrations/${type}?passesUpdatedSince=${tag}`;
  const register = () =>
    new Request(registerUrl, { method: 'POST', headers: { authorization: `ApplePass ${token}`, 'content-type': 'application/json' }, body });
  const serials = () => new Request(serialsUrl);
  const bare = async () => new Response(null, { status: 200 });

  // Both must answer as expected before their speed means anything.
  const check = await handler(register());
  if (check.status !== 200) throw new Error(`register answered ${check.status}`);
  const listed = await (await handler(serials())).json();
  if (listed.serialNumbers.length !== 5) throw new Error('serials did not list the 5 changed passes');

  const timings = await measureAsync(
    [
      { name: 'register', fn: async () => (await handler(register())).status },
      { name: 'register bare', fn: async () => (await bare(register())).status },
      { name: 'serials', fn: async () => (await (await handler(serials())).arrayBuffer()).byteLength },
      { name: 'serials bare', fn: async () => (await bare(serials())).status },
    ],
    { batchMs: 15 },
  );
  const t = (name) => timings.get(name);
  return [
    {
      name: 'wallet: register call (POST, ApplePass check, JSON body, store), requests/s vs a bare Response handler',
      ours: t('register').median,
      baseline: t('register bare').median,
      ratio: pairedRatio(t('register'), t('register bare')),
    },
    {
      name: 'wallet: serials call (GET, 5 of 10 passes changed), requests/s vs a bare Response handler',
      ours: t('serials').median,
      baseline: t('serials bare').median,
      ratio: pairedRatio(t('serials'), t('serials bare')),
    },
  ];
}

/** Certificates for the stand-in and the client, made with openssl. */
function certificates() {
  const dir = mkdtempSync(join(tmpdir(), 'passmint-bench-apns-'));
  const openssl = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    writeFileSync(join(dir, 'server.ext'), 'subjectAltName = IP:127.0.0.1\n');
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=bench CA');
    for (const [name, subject, ext] of [
      ['server', '/CN=127.0.0.1', ['-extfile', 'server.ext']],
      ['pass', `/UID=${type}/CN=Pass Type ID: ${type}/OU=A93A5CM278`, []],
    ]) {
      openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
      openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '1', ...ext);
    }
    const read = (name) => readFileSync(join(dir, name), 'utf8');
    return { ca: read('ca.pem'), serverCert: read('server.pem'), serverKey: read('server.key'), passCert: read('pass.pem'), passKey: read('pass.key') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pushRows(apnsModule) {
  const pem = certificates();
  const server = createSecureServer({ key: pem.serverKey, cert: pem.serverCert, ca: [pem.ca], requestCert: true, rejectUnauthorized: true });
  server.on('stream', (stream) => {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      stream.respond({ ':status': 200, 'apns-id': '8c1c6b3f-6a7d-4d7e-9b7a-0c2f4b1d9e10' });
      stream.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${server.address().port}`;
  const concurrency = 100;
  const batch = 2000;

  const client = apnsModule.createApnsClient({ certificate: { cert: pem.passCert, key: pem.passKey }, origin, ca: pem.ca, concurrency });
  const session = connect(origin, { cert: pem.passCert, key: pem.passKey, ca: pem.ca });
  const barePush = () =>
    new Promise((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': `/3/device/${pushToken}`,
        'apns-topic': type,
        'content-type': 'application/json',
        'content-length': '2',
      });
      let status = 0;
      stream.on('response', (headers) => (status = headers[':status']));
      stream.on('data', () => undefined);
      stream.on('close', () => (status === 200 ? resolve(status) : reject(new Error(`status ${status}`))));
      stream.on('error', reject);
      stream.end('{}');
    });
  const bare = async () => {
    // The same bound: `concurrency` requests in flight, the next starting as one ends.
    let next = 0;
    const worker = async () => {
      while (next < batch) {
        next++;
        await barePush();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  const ours = async () => {
    const results = await Promise.all(Array.from({ length: batch }, () => client.push(pushToken, type)));
    if (results.some((result) => result.outcome !== 'sent')) throw new Error('a push was not sent');
  };

  const samples = { ours: [], bare: [] };
  await ours();
  await bare();
  for (let round = 0; round < 9; round++) {
    for (const [name, fn] of round % 2 === 0
      ? [
          ['ours', ours],
          ['bare', bare],
        ]
      : [
          ['bare', bare],
          ['ours', ours],
        ]) {
      const start = performance.now();
      await fn();
      samples[name].push(((performance.now() - start) * 1e6) / batch);
    }
  }
  await client.close();
  session.close();
  await new Promise((resolve) => server.close(resolve));
  return [
    {
      name: `apns: pushes/s to a local HTTP/2 TLS stand-in, createApnsClient vs bare node:http2 (one connection, ${concurrency} in flight)`,
      ours: median(samples.ours),
      baseline: median(samples.bare),
      ratio: pairedRatio({ samples: samples.ours }, { samples: samples.bare }),
    },
  ];
}

/**
 * Runs the wallet and push benchmark.
 *
 * @returns {Promise<{ name: string, ours: number, baseline: number, ratio: number }[]>} ns per request or push; ratio = ours / baseline
 */
export async function benchWallet() {
  const { wallet, apns } = await load();
  return [...(await handlerRows(wallet)), ...(await pushRows(apns))];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchWallet()) {
    const rate = (ns) => `${Math.round(1e9 / ns).toLocaleString('en')}/s`;
    console.log(`${row.name}: ${rate(row.ours)} vs ${rate(row.baseline)} → ${row.ratio.toFixed(2)}× the time`);
  }
}
