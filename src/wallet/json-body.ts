import { readLimited } from '../read-limited.js';

/** What reading a JSON request body gave: the value, or why there is none. */
export type JsonBody = { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'too-large' } | { readonly kind: 'invalid' };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a request body as UTF-8 JSON, never more than `maxBytes`: a larger
 * `Content-Length` is refused before reading, and a stream that runs past the
 * limit is cancelled as soon as it does (no flood is buffered).
 *
 * @example
 * ```ts
 * const body = await readJsonBody(request, 8192);
 * if (body.kind === 'too-large') return new Response(null, { status: 413 });
 * ```
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { kind: 'too-large' };
  }
  const bytes = await readLimited(request.body, maxBytes);
  if (bytes === undefined) return { kind: 'too-large' };
  try {
    return { kind: 'json', value: JSON.parse(decoder.decode(bytes)) };
  } catch {
    return { kind: 'invalid' };
  }
}
