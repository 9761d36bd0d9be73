/**
 * The media type of a `.pkpass` file; Safari and Mail hand it to Wallet.
 *
 * @example
 * ```ts
 * new Response(pkpass, { headers: { 'Content-Type': PKPASS_MIME_TYPE } });
 * ```
 */
export const PKPASS_MIME_TYPE: 'application/vnd.apple.pkpass' = 'application/vnd.apple.pkpass';

/**
 * The media type of a `.pkpasses` bundle (several passes, iOS 15+).
 *
 * @example
 * ```ts
 * new Response(packPasses(passes), { headers: { 'Content-Type': PKPASSES_MIME_TYPE } });
 * ```
 */
export const PKPASSES_MIME_TYPE: 'application/vnd.apple.pkpasses' = 'application/vnd.apple.pkpasses';

/**
 * Headers to serve a pass (or, for a `.pkpasses` name, a bundle): the media
 * type and `Content-Disposition: inline`, which lets Safari show Wallet's
 * preview, with the file name (RFC 6266 / RFC 8187 for non-ASCII names).
 *
 * @example
 * ```ts
 * return new Response(await packPass(pass, files, signer), { headers: pkpassHeaders('ticket.pkpass') });
 * ```
 */
export function pkpassHeaders(filename = 'pass.pkpass'): Record<string, string> {
  const type = filename.toLowerCase().endsWith('.pkpasses') ? PKPASSES_MIME_TYPE : PKPASS_MIME_TYPE;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const disposition = ascii === filename ? `inline; filename="${filename}"` : `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
  return { 'Content-Type': type, 'Content-Disposition': disposition };
}
