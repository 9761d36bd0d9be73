// Throwaway signing material and pass images for the benches: a root → WWDR →
// Pass Type ID certificate chain made with the openssl command (shaped like
// Apple's), PNGs made with node:zlib, and UTF-16 .strings files.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 as zlibCrc32, deflateSync as zlibDeflate } from 'node:zlib';
import { PASS_TYPE } from './bench-template.js';

/** The team identifier of the throwaway Pass Type ID certificate. */
export const TEAM = 'A93A5CM278';
const EXTENSIONS = `[ca]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[pass]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = 1.2.840.113635.100.4.14
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

/** Makes the chain in `dir` (root.pem, wwdr.pem, pass.pem, pass.key there too); resolves with the PEM texts. */
export function makePki(dir) {
  const run = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  writeFileSync(join(dir, 'ext.cnf'), EXTENSIONS);
  for (const name of ['root', 'wwdr', 'pass']) run('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', `${name}.key`);
  run(
    'req',
    '-x509',
    '-new',
    '-key',
    'root.key',
    '-subj',
    '/C=US/O=Bench CA/CN=Bench Root',
    '-days',
    '3650',
    '-addext',
    'basicConstraints=critical,CA:true',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-out',
    'root.pem',
  );
  run('req', '-new', '-key', 'wwdr.key', '-subj', '/C=US/O=Bench CA/OU=G4/CN=Bench Worldwide Developer Relations', '-out', 'wwdr.csr');
  run(
    'x509',
    '-req',
    '-in',
    'wwdr.csr',
    '-CA',
    'root.pem',
    '-CAkey',
    'root.key',
    '-set_serial',
    '2',
    '-days',
    '3000',
    '-extfile',
    'ext.cnf',
    '-extensions',
    'ca',
    '-out',
    'wwdr.pem',
  );
  run('req', '-new', '-key', 'pass.key', '-subj', `/UID=${PASS_TYPE}/CN=Pass Type ID: ${PASS_TYPE}/OU=${TEAM}/O=Bench/C=US`, '-out', 'pass.csr');
  run(
    'x509',
    '-req',
    '-in',
    'pass.csr',
    '-CA',
    'wwdr.pem',
    '-CAkey',
    'wwdr.key',
    '-set_serial',
    '3',
    '-days',
    '365',
    '-extfile',
    'ext.cnf',
    '-extensions',
    'pass',
    '-out',
    'pass.pem',
  );
  const read = (name) => readFileSync(join(dir, name), 'utf8');
  return { rootPem: read('root.pem'), wwdrPem: read('wwdr.pem'), certPem: read('pass.pem'), keyPem: read('pass.key') };
}

/** A PNG of noise (incompressible, as real artwork mostly is), or of one colour, made with node:zlib. */
export function noisePng(width, height, noise = true) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlibCrc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2; // RGB
  // Noise: incompressible, as photographs are; flat (noise false): one colour, as a simple logo nearly is.
  const raw = noise ? randomBytes((width * 3 + 1) * height) : Buffer.alloc((width * 3 + 1) * height, 0x5a);
  for (let row = 0; row < height; row++) raw[row * (width * 3 + 1)] = 0;
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlibDeflate(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

export function utf16Strings(pairs) {
  const text = pairs.map(([key, value]) => `"${key}" = "${value}";\n`).join('');
  return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
}

/** {@link makePki}, and the files `passmint serve --cert pass.pem --key pass.key --wwdr wwdr.pem` reads, in `dir`. */
export function writePki(dir) {
  const pki = makePki(dir);
  writeFileSync(join(dir, 'pass.pem'), pki.certPem);
  writeFileSync(join(dir, 'pass.key'), pki.keyPem);
  writeFileSync(join(dir, 'wwdr.pem'), pki.wwdrPem);
  return pki;
}
