import { readSchemeToken, sameDigest } from '../http/auth-scheme.js';
import { sha256 } from '../http/sha256/index.js';

const encoder = new TextEncoder();

/**
 * The token of an `Authorization: ApplePass <authenticationToken>` header, or
 * `undefined` when the header is missing, uses another scheme, or has no token.
 * The scheme is matched case-insensitively, as HTTP auth schemes are.
 *
 * @example
 * ```ts
 * readApplePassToken('ApplePass vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc'); // 'vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc'
 * readApplePassToken('Bearer x'); // undefined
 * ```
 */
export function readApplePassToken(authorization: string | null): string | undefined {
  return readSchemeToken(authorization, 'applepass');
}

/**
 * Whether the presented token equals the pass's own, in constant time: both
 * are hashed with SHA-256 and the digests compared without an early exit, so
 * neither the content nor the length of the pass's token shows in the timing.
 *
 * @example
 * ```ts
 * await sameToken(readApplePassToken(request.headers.get('authorization')), pass.authenticationToken);
 * ```
 */
export async function sameToken(presented: string | undefined, expected: string): Promise<boolean> {
  // Hash something even for a missing token, so "no header" and "wrong token" take the same path.
  const [a, b] = await Promise.all([sha256(encoder.encode(presented ?? '')), sha256(encoder.encode(expected))]);
  return sameDigest(a, b) && presented !== undefined && expected !== '';
}
