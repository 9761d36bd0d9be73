/**
 * The credentials of an `Authorization` header in the given scheme (`Bearer`,
 * `ApplePass` …), or `undefined` when the header is missing, uses another
 * scheme, or has no credentials. The scheme matches case-insensitively, as HTTP
 * auth schemes do; the token is returned as sent (it may still be malformed).
 *
 * @example
 * ```ts
 * readSchemeToken('Bearer abc', 'bearer'); // 'abc'
 * readSchemeToken('Basic abc', 'bearer'); // undefined
 * ```
 */
export function readSchemeToken(authorization: string | null, scheme: string): string | undefined {
  if (authorization === null || authorization.length < scheme.length + 2) return undefined;
  if (authorization.slice(0, scheme.length).toLowerCase() !== scheme.toLowerCase()) return undefined;
  const separator = authorization.charCodeAt(scheme.length);
  if (separator !== 0x20 && separator !== 0x09) return undefined;
  const token = authorization.slice(scheme.length + 1).trim();
  return token === '' ? undefined : token;
}

/**
 * Whether two digests are equal, looking at every byte whatever it finds (no
 * early exit), so the comparison's time does not tell where they differ.
 *
 * @example
 * ```ts
 * sameDigest(await sha256(a), await sha256(b));
 * ```
 */
export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let index = 0; index < a.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}
