// Pass packages: packPass with prepared files against the same work written by
// hand on node:crypto — the prepared-images pipeline (each file's SHA-1 and CRC
// computed once; per pass createHash, createSign over a minimal hand-built CMS
// and a plain stored zip) for the ≥ 0.9× row, and a per-pass pipeline that
// hands every file to fflate.zipSync each time — against passkit-generator,
// and the Web Crypto build against both; plus what a bundler ships for packPass.
//
// Certificates are made with the openssl command in a temporary folder (root →
// WWDR → Pass Type ID certificate, shaped like Apple's). Every package is
// checked (verifyPass with the root) before any timing means anything.

import { createHash, createPrivateKey, createSign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { crc32 as zlibCrc32, gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { rolldown } from 'rolldown';
import { PASS_TYPE } from './lib/bench-template.js';
import { measureAsync, pairedRatio } from './lib/measure.js';
import { makePki, noisePng, TEAM, utf16Strings } from './lib/pki.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const resolveFor = (conditions) => ({ extensionAlias: { '.js': ['.ts', '.js'] }, conditionNames: [...conditions, 'import', 'default'] });

/** passmint/pkpass bundled twice from src/: for Node (#pkcrypto → node:crypto) and for browsers and workers (Web Crypto). */
async function load(dir) {
  const builds = {};
  for (const [name, conditions, platform] of [
    ['node', ['node'], 'node'],
    ['web', [], 'neutral'],
  ]) {
    const bundle = await rolldown({ input: { [name]: `${root}src/pkpass/index.ts` }, resolve: resolveFor(conditions), platform, logLevel: 'silent' });
    await bundle.write({ dir: join(dir, name), format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
    await bundle.close();
    builds[name] = await import(pathToFileURL(join(dir, name, `${name}.js`)).href);
  }
  return builds;
}

/** Minified, gzipped (level 9) bytes of an entry exporting `names` from passmint/pkpass, browser conditions. */
async function shippedBytes(dir, names) {
  const entry = join(dir, `entry-${names.join('-') || 'all'}.js`);
  writeFileSync(
    entry,
    names.length === 0
      ? `export * from ${JSON.stringify(`${root}src/pkpass/index.ts`)};`
      : `export { ${names.join(', ')} } from ${JSON.stringify(`${root}src/pkpass/index.ts`)};`,
  );
  const bundle = await rolldown({ input: entry, resolve: resolveFor([]), platform: 'neutral', logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'esm', minify: true });
  await bundle.close();
  return output.reduce((sum, chunk) => sum + (chunk.type === 'chunk' ? gzipSync(chunk.code, { level: 9 }).length : 0), 0);
}

// --- The workload: a generic pass and its images (certificates and images: lib/pki.js) ---

export function workload() {
  const pass = {
    formatVersion: 1,
    passTypeIdentifier: PASS_TYPE,
    teamIdentifier: TEAM,
    serialNumber: '2f7bd3bd-0a4c-4b1e-9f0c-6d0b8a6f3e51',
    organizationName: 'Example Events',
    description: 'Event ticket',
    authenticationToken: 'c2a0e6a4-4f0e-4d3b-8b3e-3a7c1c9e2d10',
    webServiceURL: 'https://passes.example.com/',
    backgroundColor: 'rgb(30, 30, 60)',
    foregroundColor: 'rgb(255, 255, 255)',
    barcodes: [{ message: 'ABC123456', format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1' }],
    generic: {
      primaryFields: [{ key: 'event', label: 'Event', value: 'Summer Concert' }],
      secondaryFields: [{ key: 'date', label: 'Date', value: '2026-07-04T20:00+02:00', dateStyle: 'PKDateStyleMedium', timeStyle: 'PKDateStyleShort' }],
      auxiliaryFields: [{ key: 'seat', label: 'Seat', value: '12B' }],
      backFields: [{ key: 'terms', label: 'Terms', value: 'Non-refundable. '.repeat(20) }],
    },
  };
  const files = {
    'icon.png': noisePng(29, 29),
    'icon@2x.png': noisePng(58, 58),
    'icon@3x.png': noisePng(87, 87),
    'logo.png': noisePng(160, 50),
    'logo@2x.png': noisePng(320, 100),
    'logo@3x.png': noisePng(480, 150),
    'thumbnail@2x.png': noisePng(180, 180),
    'de.lproj/pass.strings': utf16Strings([
      ['Event', 'Veranstaltung'],
      ['Seat', 'Sitzplatz'],
      ['Date', 'Datum'],
    ]),
    'fr.lproj/pass.strings': utf16Strings([
      ['Event', 'Événement'],
      ['Seat', 'Place'],
      ['Date', 'Date'],
    ]),
  };
  return { pass, files };
}

// --- The direct pipeline: node:crypto, a minimal CMS, fflate.zipSync ----------
const der = {
  length(n) {
    if (n < 0x80) return [n];
    const bytes = [];
    for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
    return [0x80 | bytes.length, ...bytes];
  },
  tlv(tag, ...parts) {
    const body = Buffer.concat(parts.map((part) => Buffer.from(part)));
    return Buffer.concat([Buffer.from([tag, ...der.length(body.length)]), body]);
  },
  oid: (hex) => Buffer.from(hex, 'hex'),
};
const OID = {
  data: der.oid('06092a864886f70d010701'),
  signedData: der.oid('06092a864886f70d010702'),
  sha256: der.oid('0609608648016503040201'),
  rsaEncryption: der.oid('06092a864886f70d010101'),
  contentType: der.oid('06092a864886f70d010903'),
  messageDigest: der.oid('06092a864886f70d010904'),
  signingTime: der.oid('06092a864886f70d010905'),
};
const NULL = Buffer.from([0x05, 0x00]);

/** One DER element at `at`: [start of content, end]. */
function element(bytes, at) {
  let length = bytes[at + 1];
  let start = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    length = 0;
    for (let index = 0; index < count; index++) length = length * 256 + bytes[at + 2 + index];
    start += count;
  }
  return [start, start + length];
}

/** The issuer Name and serial INTEGER of a certificate, as DER. */
function issuerAndSerial(certDer) {
  const [tbsStart] = element(certDer, element(certDer, 0)[0]);
  let at = tbsStart;
  if (certDer[at] === 0xa0) at = element(certDer, at)[1]; // version
  const serialEnd = element(certDer, at)[1];
  const serial = certDer.subarray(at, serialEnd);
  const issuerStart = element(certDer, serialEnd)[1]; // skip the signature algorithm
  const issuer = certDer.subarray(issuerStart, element(certDer, issuerStart)[1]);
  return der.tlv(0x30, issuer, serial);
}

function pemToDer(pem) {
  return Buffer.from(pem.replace(/-----[^-]+-----|\s+/g, ''), 'base64');
}

function utcTime(date) {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return der.tlv(0x17, Buffer.from(`${text}Z`, 'latin1'));
}

function directSigner({ certPem, keyPem, wwdrPem }) {
  const cert = pemToDer(certPem);
  const wwdr = pemToDer(wwdrPem);
  const key = createPrivateKey(keyPem);
  const sid = issuerAndSerial(cert);
  const sha256 = der.tlv(0x30, OID.sha256, NULL);
  return (content, signingTime) => {
    const attributes = [
      der.tlv(0x30, OID.contentType, der.tlv(0x31, OID.data)),
      der.tlv(0x30, OID.signingTime, der.tlv(0x31, utcTime(signingTime))),
      der.tlv(0x30, OID.messageDigest, der.tlv(0x31, der.tlv(0x04, createHash('sha256').update(content).digest()))),
    ].sort(Buffer.compare);
    const signed = der.tlv(0x31, ...attributes);
    const signature = createSign('sha256').update(signed).sign(key);
    const signerInfo = der.tlv(
      0x30,
      Buffer.from([0x02, 0x01, 0x01]),
      sid,
      sha256,
      Buffer.concat([Buffer.from([0xa0]), signed.subarray(1)]),
      der.tlv(0x30, OID.rsaEncryption, NULL),
      der.tlv(0x04, signature),
    );
    const signedData = der.tlv(
      0x30,
      Buffer.from([0x02, 0x01, 0x01]),
      der.tlv(0x31, sha256),
      der.tlv(0x30, OID.data),
      der.tlv(0xa0, cert, wwdr),
      der.tlv(0x31, signerInfo),
    );
    return new Uint8Array(der.tlv(0x30, OID.signedData, der.tlv(0xa0, signedData)));
  };
}

/** What a careful hand-written service does per pass: file hashes computed once, the rest per pass. */
function directPipeline(pki, files) {
  const sign = directSigner(pki);
  const hashes = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, createHash('sha1').update(bytes).digest('hex')]));
  const entries = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, name.endsWith('.png') ? [bytes, { level: 0 }] : bytes]));
  return (pass, signingTime) => {
    const passJson = Buffer.from(JSON.stringify(pass));
    const manifest = Buffer.from(JSON.stringify({ 'pass.json': createHash('sha1').update(passJson).digest('hex'), ...hashes }));
    const signature = sign(manifest, signingTime);
    return zipSync({ 'pass.json': passJson, ...entries, 'manifest.json': manifest, signature: [signature, { level: 0 }] }, { mtime: signingTime });
  };
}

// --- The prepared-images pipeline: what packPass does, written by hand --------
/**
 * A plain zip writer, every entry stored: local headers with sizes and CRC,
 * the central directory, the end record. `entries` are prepared once
 * ({@link storedEntry}); per pass only pass.json, manifest.json and signature
 * are new.
 */
function storedEntry(name, bytes) {
  return { name: Buffer.from(name, 'utf8'), data: bytes, crc: zlibCrc32(bytes) >>> 0 };
}

function writeStoredZip(entries, date) {
  const time = (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1);
  const day = ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
  let size = 22;
  for (const entry of entries) size += 30 + 46 + 2 * entry.name.length + entry.data.length;
  const out = Buffer.alloc(size);
  const offsets = [];
  let at = 0;
  const shared = (entry, pos) => {
    out.writeUInt16LE(10, pos);
    out.writeUInt16LE(0, pos + 2);
    out.writeUInt16LE(0, pos + 4);
    out.writeUInt16LE(time, pos + 6);
    out.writeUInt16LE(day, pos + 8);
    out.writeUInt32LE(entry.crc, pos + 10);
    out.writeUInt32LE(entry.data.length, pos + 14);
    out.writeUInt32LE(entry.data.length, pos + 18);
    out.writeUInt16LE(entry.name.length, pos + 22);
  };
  for (const entry of entries) {
    offsets.push(at);
    out.writeUInt32LE(0x04034b50, at);
    shared(entry, at + 4);
    out.set(entry.name, at + 30);
    at += 30 + entry.name.length;
    out.set(entry.data, at);
    at += entry.data.length;
  }
  const directory = at;
  entries.forEach((entry, index) => {
    out.writeUInt32LE(0x02014b50, at);
    out.writeUInt16LE(20, at + 4);
    shared(entry, at + 6);
    out.writeUInt32LE(offsets[index], at + 42);
    out.set(entry.name, at + 46);
    at += 46 + entry.name.length;
  });
  out.writeUInt32LE(0x06054b50, at);
  out.writeUInt16LE(entries.length, at + 8);
  out.writeUInt16LE(entries.length, at + 10);
  out.writeUInt32LE(at - directory, at + 12);
  out.writeUInt32LE(directory, at + 16);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * The hand-written prepared-images pipeline: each file's SHA-1, CRC and name
 * bytes computed once; per pass createHash for pass.json and the manifest,
 * createSign over a minimal hand-built CMS, and a stored zip. No checks.
 */
export function preparedPipeline(pki, files) {
  const sign = directSigner(pki);
  const names = Object.keys(files).sort();
  const hashes = names.map((name) => [name, createHash('sha1').update(files[name]).digest('hex')]);
  const prepared = names.map((name) => storedEntry(name, files[name]));
  return (pass, signingTime) => {
    const passJson = Buffer.from(JSON.stringify(pass));
    let manifest = `{\n  "pass.json" : "${createHash('sha1').update(passJson).digest('hex')}"`;
    for (const [name, hash] of hashes) manifest += `,\n  ${JSON.stringify(name)} : "${hash}"`;
    const manifestBytes = Buffer.from(`${manifest}\n}\n`);
    const signature = sign(manifestBytes, signingTime);
    return writeStoredZip(
      [storedEntry('pass.json', passJson), ...prepared, storedEntry('manifest.json', manifestBytes), storedEntry('signature', signature)],
      signingTime,
    );
  };
}

// --- Timing --------------------------------------------------------------------

/**
 * Runs the pkpass benchmark.
 *
 * @returns {Promise<{ speed: { name: string, ours: number, baseline: number, speedup: number, min?: number }[], sizes: { name: string, ours: number, baseline: number, ratio: number }[] }>}
 */
export async function benchPkpass() {
  const dir = mkdtempSync(join(tmpdir(), 'passmint-bench-pkpass-'));
  try {
    const pki = makePki(dir);
    const { node, web } = await load(dir);
    const { pass, files } = workload();
    const signingTime = new Date(Math.floor(Date.now() / 1000) * 1000);
    const signerOptions = { certificate: pki.certPem, privateKey: pki.keyPem, wwdr: pki.wwdrPem };
    const nodeSigner = await node.createPassSigner(signerOptions);
    const webSigner = await web.createPassSigner(signerOptions);
    const [nodePrepared, webPrepared] = await Promise.all([node.prepareFiles(files), web.prepareFiles(files)]);
    const direct = directPipeline(pki, files);
    const handWritten = preparedPipeline(pki, files);
    // The same with icon.png alone: what is left when there is little to zip (signing, JSON, checks).
    const iconOnly = { 'icon.png': files['icon.png'] };
    const directIcon = directPipeline(pki, iconOnly);
    const iconPrepared = await node.prepareFiles(iconOnly);
    const { PKPass } = await import('passkit-generator');
    const templateBuffers = Object.fromEntries(
      Object.entries({ ...files, 'pass.json': new TextEncoder().encode(JSON.stringify(pass)) }).map(([name, bytes]) => [name, Buffer.from(bytes)]),
    );
    const certificates = { wwdr: pki.wwdrPem, signerCert: pki.certPem, signerKey: pki.keyPem };
    const passkit = () => new PKPass(templateBuffers, certificates, { serialNumber: pass.serialNumber }).getAsBuffer();

    // Every package must be a pass Wallet would open before its speed means anything.
    const check = async (name, bytes) => {
      const report = await node.verifyPass(new Uint8Array(bytes), { roots: [pki.rootPem] });
      const errors = report.issues.filter((issue) => issue.severity === 'error');
      if (errors.length > 0) throw new Error(`${name} makes a package verifyPass refuses: ${errors.map((issue) => `${issue.code} ${issue.path}`).join(', ')}`);
    };
    const ours = await node.packPass(pass, nodePrepared, nodeSigner, { signingTime });
    await check('packPass (node)', ours);
    const ofWeb = await web.packPass(pass, webPrepared, webSigner, { signingTime });
    await check('packPass (Web Crypto)', ofWeb);
    if (Buffer.compare(Buffer.from(ours), Buffer.from(ofWeb)) !== 0) throw new Error('the node and Web Crypto builds disagree');
    await check('the direct pipeline', direct(pass, signingTime));
    await check('the prepared-images pipeline', handWritten(pass, signingTime));
    await check('the direct pipeline, icon only', directIcon(pass, signingTime));
    await check('passkit-generator', passkit());

    const fast = await measureAsync(
      [
        { name: 'prepared', fn: () => handWritten(pass, signingTime) },
        { name: 'direct', fn: () => direct(pass, signingTime) },
        { name: 'node', fn: () => node.packPass(pass, nodePrepared, nodeSigner, { signingTime }) },
        { name: 'node, stored', fn: () => node.packPass(pass, nodePrepared, nodeSigner, { signingTime, compress: false }) },
        { name: 'web', fn: () => web.packPass(pass, webPrepared, webSigner, { signingTime }) },
        { name: 'raw files', fn: () => node.packPass(pass, files, nodeSigner, { signingTime }) },
        { name: 'direct, icon only', fn: () => directIcon(pass, signingTime) },
        { name: 'node, icon only', fn: () => node.packPass(pass, iconPrepared, nodeSigner, { signingTime }) },
      ],
      { rounds: 41, batchMs: 40, warmupMs: 400, clock: 'cpu' },
    ); // CPU time: what each costs, whatever else a shared machine runs meanwhile
    const slow = await measureAsync(
      [
        { name: 'node', fn: () => node.packPass(pass, nodePrepared, nodeSigner, { signingTime }) },
        { name: 'passkit-generator', fn: passkit },
      ],
      { rounds: 9, batchMs: 150, warmupMs: 600 },
    );
    const row = (name, oursTiming, baselineTiming, min) => ({
      name,
      ours: oursTiming.median,
      baseline: baselineTiming.median,
      speedup: pairedRatio(baselineTiming, oursTiming),
      ...(min === undefined ? {} : { min }),
    });
    const speed = [
      row(
        'pkpass: packPass, prepared files (Node) vs the hand-written prepared-images pipeline (createHash + createSign + hand-built CMS + stored zip)',
        fast.get('node'),
        fast.get('prepared'),
        0.9,
      ),
      row(
        'pkpass: packPass, prepared files (Web Crypto build: signing key imported once per signer) vs the same hand-written prepared-images pipeline (info)',
        fast.get('web'),
        fast.get('prepared'),
      ),
      row(
        'pkpass: packPass, prepared files (Web Crypto build) vs a per-pass pipeline: file hashes once, fflate.zipSync of every file each pass',
        fast.get('web'),
        fast.get('direct'),
        0.75,
      ),
      row('pkpass: packPass, compress: false (Node) vs the hand-written prepared-images pipeline (info)', fast.get('node, stored'), fast.get('prepared')),
      row(
        'pkpass: packPass, prepared files (Node) vs a per-pass pipeline: file hashes once, fflate.zipSync of every file each pass (info)',
        fast.get('node'),
        fast.get('direct'),
      ),
      row('pkpass: packPass, prepared files (Node) vs passkit-generator 3', slow.get('node'), slow.get('passkit-generator'), 50),
      row('pkpass: packPass, raw files each time (Node) vs the direct pipeline (info)', fast.get('raw files'), fast.get('direct')),
      row(
        'pkpass: packPass vs the direct pipeline, icon.png only: signing, JSON and checks (info)',
        fast.get('node, icon only'),
        fast.get('direct, icon only'),
      ),
    ];

    const whole = await shippedBytes(dir, []);
    const sizes = [];
    for (const [label, names] of [
      ['packPass alone', ['packPass']],
      ['packPass + prepareFiles + createPassSigner (a signing service)', ['packPass', 'prepareFiles', 'createPassSigner']],
      ['verifyPass alone', ['verifyPass']],
    ]) {
      const bytes = await shippedBytes(dir, names);
      sizes.push({ name: `size: ${label}, min+gzip, vs all of passmint/pkpass (info)`, ours: bytes, baseline: whole, ratio: bytes / whole });
    }
    return { speed, sizes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { speed, sizes } = await benchPkpass();
  for (const row of speed)
    console.log(
      `${row.name}: ${(row.ours / 1e6).toFixed(3)} ms vs ${(row.baseline / 1e6).toFixed(3)} ms → ${row.speedup.toFixed(2)}× as fast${row.min === undefined ? '' : ` (target ≥ ${row.min}×)`}`,
    );
  for (const row of sizes) console.log(`${row.name}: ${(row.ours / 1024).toFixed(1)} KB of ${(row.baseline / 1024).toFixed(1)} KB`);
}
