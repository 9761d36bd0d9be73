import { zipSync } from 'fflate';

const encoder = new TextEncoder();

async function sha1Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A pass bundle without a signature: pass.json, the images and manifest.json
 * (each file's SHA-1), zipped. Wallet refuses it (it has no `signature`), but
 * it is what `signpass` or `passmint pack` signs, and the inspector reads it.
 * passmint/pkpass has no unsigned packer (packPass always signs), so the
 * playground zips it with fflate.
 *
 * @example
 * ```ts
 * const zip = await unsignedBundle(pass, { 'icon.png': icon });
 * ```
 */
export async function unsignedBundle(pass: unknown, files: Readonly<Record<string, Uint8Array>>): Promise<Uint8Array> {
  const entries: Record<string, Uint8Array> = { 'pass.json': encoder.encode(JSON.stringify(pass, null, 2)) };
  for (const [path, bytes] of Object.entries(files)) entries[path] = bytes;
  const manifest: Record<string, string> = {};
  for (const [path, bytes] of Object.entries(entries)) manifest[path] = await sha1Hex(bytes);
  entries['manifest.json'] = encoder.encode(JSON.stringify(manifest, null, 2));
  return zipSync(entries, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') });
}
