// Idempotency-Key on every POST that takes an API key (Stripe's rules): the
// first answer is kept for 24 hours and replayed with `Idempotent-Replayed:
// true`; the same key with another request is 422; while the first still
// runs, 409. Applied once, around every route's handler, by the router.
import { createHash, randomUUID } from 'node:crypto';
import { claimIdempotencyKey, completeIdempotencyKey, extendIdempotencyKey, type KeptAnswer, releaseIdempotencyKey } from '../db/idempotency.js';
import type { SqlDatabase } from '../db/sql.js';
import { BytesResponse } from '../http/bytes-response.js';
import { problemResponse, ServiceProblem } from '../../http/problem.js';
import type { AroundHandler } from '../http/router.js';

/** Longest `Idempotency-Key`, in characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Largest answer kept for replay; a larger one is not replayed (409 `idempotency-answer-not-kept`). */
export const MAX_KEPT_ANSWER_BYTES = 1_048_576;
/** Most bytes of a retried request's body hashed to compare it with the first (a larger body is a 413). */
const MAX_HASHED_BYTES = 1_073_741_824;
/** What is read of a body the handler left unread, to finish its hash (a larger rest: the answer is not kept). */
const MAX_DRAINED_BYTES = 65_536;
// Printable ASCII, no leading or trailing space (HTTP trims them anyway).
const KEY = new RegExp(`^[\\x21-\\x7e](?:[\\x20-\\x7e]{0,${MAX_IDEMPOTENCY_KEY_LENGTH - 2}}[\\x21-\\x7e])?$`);
// Headers that describe one transfer, not the answer: never replayed.
const TRANSFER_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'date', 'x-request-id', 'set-cookie', 'keep-alive']);

/** Options of {@link createIdempotency}. */
export interface IdempotencyOptions {
  /** A running request's claim, extended every third of it while its handler runs (default 60 s). */
  readonly leaseMs?: number | undefined;
  readonly onError?: ((error: unknown) => void) | undefined;
}

/**
 * The idempotency layer the router runs around every handler (see
 * {@link AroundHandler}): for a POST with `Idempotency-Key` and a checked API
 * key, the key (scoped to that API key) is claimed in the database first.
 *
 * - New: the handler runs; its answer is kept (status, headers, body up to
 *   {@link MAX_KEPT_ANSWER_BYTES}) with the SHA-256 of the request (method,
 *   path with query, body — hashed as the handler reads it, never held).
 *   Only answers below 400 are kept: a refusal (4xx) or a failure (5xx)
 *   changed nothing, and a retry with the key runs again (with a body put
 *   right, too).
 * - Done, same request: the kept answer with `Idempotent-Replayed: true`.
 * - Done, another request: 422 `idempotency-key-reused`.
 * - Still running: 409 `idempotency-key-in-use` (a process killed mid-request
 *   leaves its claim until its lease runs out).
 *
 * @example
 * ```ts
 * const route = createRouter(API_ROUTES, services, keys.check, createIdempotency(db));
 * ```
 */
export function createIdempotency(db: SqlDatabase, options: IdempotencyOptions = {}): AroundHandler {
  const leaseMs = options.leaseMs ?? 60_000;
  const onError = options.onError ?? (() => undefined);
  return async (request, url, keyId, run) => {
    const key = request.headers.get('idempotency-key');
    if (request.method !== 'POST' || key === null || keyId === undefined) return run(request);
    if (!KEY.test(key)) {
      throw new ServiceProblem(400, 'invalid-idempotency-key', `\`Idempotency-Key\` is 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters.`);
    }
    const lease = randomUUID();
    const claim = await claimIdempotencyKey(db, keyId, key, lease, leaseMs);
    if (claim.state === 'running') {
      throw new ServiceProblem(409, 'idempotency-key-in-use', 'A request with this Idempotency-Key is still being answered; retry once it is.', {
        headers: { 'retry-after': '1' },
      });
    }
    if (claim.state === 'done') {
      if ((await hashWholeRequest(request, url)) !== claim.answer.requestHash) {
        throw new ServiceProblem(422, 'idempotency-key-reused', 'This Idempotency-Key was used with another request (method, path or body); use a new key.');
      }
      return replay(claim.answer);
    }

    const hashed = hashAsRead(request, url);
    const timer = setInterval(() => {
      extendIdempotencyKey(db, keyId, key, lease, leaseMs).catch(onError);
    }, leaseMs / 3);
    timer.unref?.();
    let response: Response;
    try {
      response = await run(request);
    } catch (error) {
      // A problem (4xx) or a failure: nothing kept, the next request with the key runs.
      clearInterval(timer);
      await releaseIdempotencyKey(db, keyId, key, lease).catch(onError);
      throw error;
    }
    clearInterval(timer);
    // Only an answer that did the work is kept (Stripe keeps none for a request refused before it ran): a 4xx or 5xx is answered, and a retry runs again.
    const requestHash = response.status >= 400 ? undefined : await hashed.finish();
    if (requestHash === undefined) {
      await releaseIdempotencyKey(db, keyId, key, lease).catch(onError);
      return response;
    }
    const { body, answer } = await keptBody(response);
    const headers = [...response.headers].filter(([name]) => !TRANSFER_HEADERS.has(name));
    try {
      await completeIdempotencyKey(db, keyId, key, lease, { requestHash, status: response.status, headers, body });
    } catch (error) {
      // The work is done and its answer goes out; a retry after the lease runs out would run again.
      onError(error);
    }
    return answer ?? new BytesResponse(body!, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The kept answer, replayed. */
function replay(kept: KeptAnswer): Response {
  const headers = new Headers(kept.headers as [string, string][]);
  headers.set('idempotent-replayed', 'true');
  if (kept.body !== undefined) return new BytesResponse(kept.body, { status: kept.status, headers });
  const location = headers.get('location');
  return problemResponse(
    {
      status: 409,
      code: 'idempotency-answer-not-kept',
      detail: `The first request with this Idempotency-Key was answered ${kept.status}, but its answer was larger than ${MAX_KEPT_ANSWER_BYTES} bytes and was not kept${location === null ? '' : ` (Location: ${location})`}; read the resource instead.`,
      headers: { 'idempotent-replayed': 'true', ...(location === null ? {} : { location }) },
    },
    { length: false },
  );
}

/**
 * The answer's body to keep: its bytes when at most {@link MAX_KEPT_ANSWER_BYTES}
 * (and the answer to send, rebuilt from them, unless the caller rebuilds it),
 * else `undefined` with an answer that still streams the whole body.
 */
async function keptBody(response: Response): Promise<{ body: Uint8Array | undefined; answer: Response | undefined }> {
  if (response instanceof BytesResponse) {
    const bytes = response.takeBytes();
    if (bytes !== undefined) {
      const answer = new BytesResponse(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
      return { body: bytes.byteLength <= MAX_KEPT_ANSWER_BYTES ? bytes : undefined, answer };
    }
  }
  if (response.body === null) return { body: new Uint8Array(0), answer: response };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    chunks.push(next.value);
    size += next.value.byteLength;
    if (size > MAX_KEPT_ANSWER_BYTES) {
      // Too large to keep: send what was read, then the rest as it comes.
      const rest = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
        },
        async pull(controller) {
          const more = await reader.read();
          if (more.done) controller.close();
          else controller.enqueue(more.value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return { body: undefined, answer: new Response(rest, { status: response.status, statusText: response.statusText, headers: response.headers }) };
    }
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return { body, answer: undefined };
}

/** The hash of a request's start: method and path with query (the body follows). */
function requestHasher(request: Request, url: URL) {
  return createHash('sha256').update(`${request.method}\n${url.pathname}${url.search}\n`);
}

/** The SHA-256 of a retried request, its body streamed through the hash (never held); 413 above {@link MAX_HASHED_BYTES}. */
async function hashWholeRequest(request: Request, url: URL): Promise<string> {
  const hash = requestHasher(request, url);
  if (request.body === null) return hash.digest('hex');
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    size += next.value.byteLength;
    if (size > MAX_HASHED_BYTES) {
      await reader.cancel();
      throw new ServiceProblem(413, 'body-too-large', `The body is larger than ${MAX_HASHED_BYTES} bytes.`);
    }
    hash.update(next.value);
  }
  return hash.digest('hex');
}

/**
 * Hashes the request's body as its handler reads it: the request's `body`
 * is replaced, on the request itself (so everything the service keeps beside
 * a request — its address, whether its client left — still finds it), by a
 * stream that passes each chunk through the hash. `finish` reads what the
 * handler left unread (up to {@link MAX_DRAINED_BYTES}) and answers the
 * hash, or `undefined` when the body could not be read to its end (the
 * handler stopped at a limit).
 */
function hashAsRead(request: Request, url: URL): { finish(): Promise<string | undefined> } {
  const hash = requestHasher(request, url);
  const source = request.body;
  if (source === null) return { finish: async () => hash.digest('hex') };
  const reader = source.getReader();
  let ended = false;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await reader.read();
        if (next.done) {
          ended = true;
          controller.close();
        } else {
          hash.update(next.value);
          controller.enqueue(next.value);
        }
      },
      cancel(reason) {
        cancelled = true;
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  Object.defineProperty(request, 'body', { value: body, configurable: true });
  return {
    async finish() {
      if (!ended && !cancelled && !body.locked) {
        const rest = body.getReader();
        let drained = 0;
        while (!ended && drained <= MAX_DRAINED_BYTES) {
          const next = await rest.read();
          if (next.done) break;
          drained += next.value.byteLength;
        }
        if (!ended) await rest.cancel();
      }
      return ended ? hash.digest('hex') : undefined;
    },
  };
}
