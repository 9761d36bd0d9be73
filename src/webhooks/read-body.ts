import { concatBytes } from '../concat-bytes.js';
import { WebhookError } from './webhook-error.js';

/** A raw body: bytes or text as received, or a stream of them that has not been read yet. */
type RawBodySource = string | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

const encoder = new TextEncoder();

const PARSED_HINT =
  'the request body was already parsed by a framework, so its exact bytes are gone and the signature cannot be checked. ' +
  "Give passmint the raw body: with Express use express.raw({ type: 'application/json' }) on this route " +
  '(not express.json()); with node:http pass the request itself; with a Fetch handler pass the Request.';

/** Throws `body-already-parsed` with a message that says how to get the raw body. */
export function alreadyParsed(what: string): never {
  throw new WebhookError('body-already-parsed', `${what}: ${PARSED_HINT}`);
}

/**
 * Reads a raw body to bytes, refusing more than `maxBytes` (`body-too-large`)
 * and anything that is not a raw body (`body-already-parsed`).
 */
export async function readBody(source: unknown, maxBytes: number): Promise<Uint8Array> {
  let bytes: Uint8Array;
  if (typeof source === 'string') bytes = encoder.encode(source);
  else if (source instanceof Uint8Array) bytes = source;
  else if (source instanceof ArrayBuffer) bytes = new Uint8Array(source);
  else if (isReadableStream(source)) return readChunks(streamChunks(source), maxBytes);
  else if (isAsyncIterable(source)) return readChunks(source, maxBytes);
  else alreadyParsed(`The body is ${describe(source)}`);
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

async function readChunks(chunks: AsyncIterable<unknown>, maxBytes: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    const part = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    if (!(part instanceof Uint8Array)) alreadyParsed(`The body stream gave ${describe(chunk)}`);
    length += part.byteLength;
    // Stop reading (the loop's return closes the stream) instead of buffering a flood.
    if (length > maxBytes) throw tooLarge(maxBytes);
    parts.push(part);
  }
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  return concatBytes(parts, length);
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function tooLarge(maxBytes: number): WebhookError {
  return new WebhookError('body-too-large', `The body is larger than ${maxBytes} bytes (see the maxBodyBytes option)`);
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
