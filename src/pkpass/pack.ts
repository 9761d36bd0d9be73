// packPass: pass.json + prepared files → a signed .pkpass, refusing before
// signing everything Wallet would refuse.

import type { Issue } from '../issues.js';
import { validatePass, type ValidatePassOptions } from '../pass/validate.js';
import type { Pass } from '../types.js';
import { digest } from './crypto/index.js';
import type { DigestName } from './crypto/contract.js';
import { toHex, writeManifest } from './manifest.js';
import { PackError } from './pack-error.js';
import { checkFilesForPass, checkIdentity } from './pass-checks.js';
import { passJsonPointer } from './paths.js';
import { type PassFiles, prepare, PreparedFiles } from './prepare.js';
import type { PassSigner } from './signer.js';
import { writeZip, type ZipEntry, zipEntry } from './zip-write.js';

/**
 * Options of {@link packPass}.
 *
 * @example
 * ```ts
 * const options: PackOptions = { signingTime: new Date('2026-05-01T00:00:00Z'), digest: 'sha1' };
 * ```
 */
export interface PackOptions extends ValidatePassOptions {
  /** The signature's signing time, and every entry's timestamp. Default: now. Fixed → the same bytes every time. */
  readonly signingTime?: Date;
  /** The CMS digest: `sha256` (default, OpenSSL's) or `sha1` (Apple's `signpass`). */
  readonly digest?: DigestName;
  /**
   * Deflate what gains from it (default `true`): the template's files that
   * shrink (deflated once, by {@link prepareFiles}), and pass.json and
   * manifest.json from 4 KiB on (level 1). Smaller per-pass files, PNGs and the
   * signature are stored. `false` stores everything.
   */
  readonly compress?: boolean;
  /** Called once with the warnings (`unused-image`, `image-size` …) when there are any; they never stop packing. */
  readonly onWarnings?: (issues: readonly Issue[]) => void;
}

const encoder = new TextEncoder();

// pass.json and manifest.json are new in every package. Deflating one of
// under 4 KiB saves at most a few KB of a download that carries the images
// anyway, and costs 25–60 µs (fflate's set-up dominates), 7–15 % of a whole
// pass; from 4 KiB on, level 1 compresses JSON within 1 % of level 6 in half
// its time (bench/README.md, pkpass).
const DEFLATE_FROM = 4096;
const perPassEntry = (name: string, bytes: Uint8Array, compress: boolean): ZipEntry => zipEntry(name, bytes, compress && bytes.length >= DEFLATE_FROM, 1);

/**
 * Packs and signs a pass: `pass.json`, the files (raw, or prepared once with
 * {@link prepareFiles}), `manifest.json` (each file's SHA-1) and `signature`
 * (detached CMS over the manifest's exact bytes), zipped in a fixed order with
 * sizes in the local headers. Before signing it checks what Wallet checks —
 * the pass (validatePass), its identifiers against the certificate's, the
 * certificates' dates, `icon.png`, PNG images, safe paths, readable
 * `pass.strings` — and throws one {@link PackError} listing every error.
 * Issue paths: bundle paths (`/icon.png`), and `/pass.json/…` inside the pass.
 *
 * @example
 * ```ts
 * const signer = await createPassSigner({ certificate, privateKey, wwdr });
 * const pkpass = await packPass(pass, { 'icon.png': icon, 'icon@2x.png': icon2x }, signer);
 * return new Response(pkpass, { headers: pkpassHeaders('ticket.pkpass') });
 * ```
 */
export async function packPass(
  pass: Pass | unknown,
  files: PassFiles | PreparedFiles,
  signer: PassSigner,
  options: PackOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const signingTime = options.signingTime ?? new Date();
  if (!(signingTime instanceof Date) || !Number.isFinite(signingTime.getTime())) {
    throw new PackError('The pass cannot be packed', [
      { severity: 'error', code: 'invalid-type', message: 'signingTime must be a valid Date', path: '/signingTime' },
    ]);
  }
  const compress = options.compress !== false;
  const prepared = files instanceof PreparedFiles ? files : await prepare(files);
  const issues: Issue[] = [];

  // Everything is checked on pass.json as written, not on the object given:
  // toJSON, dropped undefined values and getters cannot make the two differ.
  let json: string | undefined;
  try {
    const text: unknown = JSON.stringify(pass);
    if (typeof text === 'string') json = text;
  } catch {
    // A cycle, a BigInt, a throwing getter: reported below.
  }
  const written: unknown = json === undefined ? pass : JSON.parse(json);
  for (const issue of validatePass(written, options).issues) issues.push({ ...issue, path: passJsonPointer(issue.path) });
  if (json === undefined) issues.push({ severity: 'error', code: 'invalid-json', message: 'The pass cannot be written as JSON', path: '/pass.json' });
  const passBytes = json === undefined ? undefined : encoder.encode(json);
  checkIdentity(json === undefined ? undefined : written, signer, issues);
  checkDates(signer, signingTime, issues);
  issues.push(...prepared.issues);
  checkFilesForPass(json === undefined ? undefined : written, prepared.files, issues);

  if (passBytes === undefined || issues.some((issue) => issue.severity === 'error')) throw new PackError('The pass cannot be packed', issues);
  if (issues.length > 0) options.onWarnings?.(issues);

  const manifest = writeManifest([['pass.json', toHex(await digest('sha1', passBytes))], ...prepared.files.map((file) => [file.path, file.sha1] as const)]);
  const signature = await signer.sign(manifest, { signingTime, ...(options.digest === undefined ? {} : { digest: options.digest }) });
  return writeZip(
    [
      perPassEntry('pass.json', passBytes, compress),
      ...prepared.files.map((file) => (compress ? file.compressed : file.stored)),
      perPassEntry('manifest.json', manifest, compress),
      zipEntry('signature', signature, false),
    ],
    signingTime,
  );
}

function checkDates(signer: PassSigner, at: Date, issues: Issue[]): void {
  const time = at.getTime();
  if (time < signer.notBefore.getTime()) {
    issues.push({
      severity: 'error',
      code: 'certificate-not-yet-valid',
      message: `The pass certificate is valid from ${signer.notBefore.toISOString()}, after the signing time`,
      path: '/certificate',
    });
  }
  if (time > signer.notAfter.getTime()) {
    issues.push({
      severity: 'error',
      code: 'certificate-expired',
      message: `The pass certificate expired ${signer.notAfter.toISOString()}, before the signing time`,
      path: '/certificate',
    });
  }
  if (time > signer.wwdrNotAfter.getTime()) {
    issues.push({
      severity: 'error',
      code: 'certificate-expired',
      message: `The WWDR certificate expired ${signer.wwdrNotAfter.toISOString()}, before the signing time`,
      path: '/wwdr',
    });
  }
}
