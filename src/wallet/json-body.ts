/** What reading a JSON request body gave: the value, or why there is none. */
export type JsonBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'invalid' };

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

/** The body's bytes, or `undefined` once it passes `maxBytes`. */
async function readLimited(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | undefined> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > maxBytes) return undefined;
      parts.push(value);
    }
  } finally {
    reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}
