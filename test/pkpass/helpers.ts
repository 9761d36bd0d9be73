// Shared by the pkpass package tests: real PNGs, a signer backed by the
// openssl command, and the independent checks (unzip, openssl cms, node:crypto).
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { crc32 as zlibCrc32, deflateSync } from 'node:zlib';
import type { PassSigner } from '../../src/pkpass/signer.js';
import { readZip } from '../../src/pkpass/zip-read.js';
import { writeZip, zipEntry } from '../../src/pkpass/zip-write.js';
import { makePki, type Pki } from './pki.js';

const exec = promisify(execFile);

/** A real PNG of the given size (grey, 8-bit), made with node:zlib. */
export function png(width: number, height: number, shade = 0x80): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Buffer => {
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
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((width + 1) * height, shade);
  for (let row = 0; row < height; row++) raw[row * (width + 1)] = 0;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array())]));
}

/** A generic pass's images at Apple's sizes. */
export function imageSet(): Record<string, Uint8Array> {
  return {
    'icon.png': png(29, 29),
    'icon@2x.png': png(58, 58),
    'icon@3x.png': png(87, 87),
    'logo.png': png(160, 50),
    'logo@2x.png': png(320, 100),
    'thumbnail@2x.png': png(180, 180),
  };
}

export function sha1Hex(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/** A temporary folder, removed by `done`. */
export function tempDir(): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'passmint-pkpass-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `unzip -t` on the bytes: its exit code and output. */
export function unzipTest(bytes: Uint8Array): { status: number; output: string } {
  const { dir, done } = tempDir();
  try {
    writeFileSync(join(dir, 'p.zip'), bytes);
    try {
      const output = execFileSync('unzip', ['-t', join(dir, 'p.zip')], { encoding: 'utf8' });
      return { status: 0, output };
    } catch (error) {
      const failure = error as { status: number; stdout: string };
      return { status: failure.status, output: failure.stdout };
    }
  } finally {
    done();
  }
}

/** One entry's bytes, as `unzip -p` extracts them. */
export function unzipEntry(bytes: Uint8Array, name: string): Uint8Array {
  const { dir, done } = tempDir();
  try {
    writeFileSync(join(dir, 'p.zip'), bytes);
    return new Uint8Array(execFileSync('unzip', ['-p', join(dir, 'p.zip'), name], { maxBuffer: 256 * 1024 * 1024 }));
  } finally {
    done();
  }
}

/** `unzip -Z1`: the entry names, in archive order. */
export function unzipNames(bytes: Uint8Array): string[] {
  const { dir, done } = tempDir();
  try {
    writeFileSync(join(dir, 'p.zip'), bytes);
    return execFileSync('unzip', ['-Z1', join(dir, 'p.zip')], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
  } finally {
    done();
  }
}

/**
 * `openssl cms -verify` of the package's signature over its manifest, both
 * extracted with `unzip -p`; resolves to openssl's exit status.
 */
export async function opensslVerifyPackage(pkpass: Uint8Array, rootPath: string): Promise<number> {
  const { dir, done } = tempDir();
  try {
    writeFileSync(join(dir, 'signature'), unzipEntry(pkpass, 'signature'));
    writeFileSync(join(dir, 'manifest.json'), unzipEntry(pkpass, 'manifest.json'));
    try {
      await exec(
        'openssl',
        [
          'cms',
          '-verify',
          '-binary',
          '-inform',
          'DER',
          '-in',
          'signature',
          '-content',
          'manifest.json',
          '-CAfile',
          rootPath,
          '-purpose',
          'any',
          '-out',
          '/dev/null',
        ],
        { cwd: dir },
      );
      return 0;
    } catch (error) {
      return (error as { code?: number }).code ?? 1;
    }
  } finally {
    done();
  }
}

/**
 * A PassSigner whose signatures the openssl command makes (`openssl cms
 * -sign`): packPass works with any signer, and this one shares no code with
 * the library's. openssl sets the signing time itself (now).
 */
export async function opensslSigner(pki?: Pki): Promise<PassSigner> {
  const p = pki ?? (await makePki());
  return {
    passTypeIdentifier: p.passTypeIdentifier,
    teamIdentifier: p.teamIdentifier,
    notBefore: p.certNotBefore,
    notAfter: p.certNotAfter,
    wwdrNotAfter: p.wwdrNotAfter,
    certificate: p.certDer,
    wwdr: p.wwdrDer,
    async sign(content, options) {
      const { dir, done } = tempDir();
      try {
        writeFileSync(join(dir, 'content'), content);
        await exec(
          'openssl',
          [
            'cms',
            '-sign',
            '-binary',
            '-outform',
            'DER',
            '-in',
            'content',
            '-out',
            'signature',
            '-signer',
            p.certPath,
            '-inkey',
            p.keyPath,
            '-certfile',
            p.wwdrPath,
            '-md',
            options?.digest ?? 'sha256',
            '-nosmimecap',
          ],
          { cwd: dir },
        );
        return new Uint8Array(readFileSync(join(dir, 'signature')));
      } finally {
        done();
      }
    },
  } as PassSigner;
}

/** The package's entries after `change`, zipped again in the same order (new entries last). */
export function rezip(pkpass: Uint8Array, change: (files: Map<string, Uint8Array>) => void): Uint8Array {
  const { files } = readZip(pkpass);
  change(files);
  return writeZip(
    [...files].map(([name, bytes]) => zipEntry(name, bytes, true)),
    new Date('2026-05-07T10:30:00Z'),
  );
}

/** Every file of an archive as `unzip` extracts it (one call), by path. */
export function unzipAll(bytes: Uint8Array): Map<string, Uint8Array> {
  const { dir, done } = tempDir();
  try {
    writeFileSync(join(dir, 'p.zip'), bytes);
    execFileSync('unzip', ['-q', 'p.zip', '-d', 'out'], { cwd: dir });
    const out = new Map<string, Uint8Array>();
    for (const name of readdirSync(join(dir, 'out'), { recursive: true, encoding: 'utf8' })) {
      const path = join(dir, 'out', name);
      if (statSync(path).isFile()) out.set(name.split(sep).join('/'), new Uint8Array(readFileSync(path)));
    }
    return out;
  } finally {
    done();
  }
}
