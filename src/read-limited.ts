import { concatBytes } from './concat-bytes.js';

/**
 * A body stream's bytes, or `undefined` as soon as it passes `maxBytes`: the
 * stream is cancelled there, so a flood is never buffered. One reader for the
 * request and response bodies of every module (webhook answers, the wallet's
 * and the server's request bodies, the client's responses).
 *
 * @example
 * ```ts
 * const bytes = await readLimited(request.body, 8192);
 * if (bytes === undefined) return new Response(null, { status: 413 });
 * ```
 */
export async function readLimited(body: ReadableStream<Uint8Array> | null | undefined, maxBytes: number): Promise<Uint8Array | undefined> {
  if (body === null || body === undefined) return new Uint8Array(0);
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
  }
  return concatBytes(parts, length);
}
