import type { IncomingMessage, ServerResponse } from 'node:http';
import { BytesResponse } from './bytes-response.js';
import { rememberClientAddress } from './client-address.js';
import { ClientClosedError, rememberClientLeft } from './client-closed.js';

/** One request's state shared by the listener's steps: whether its client went away before the answer. */
interface Exchange {
  request: Request | undefined;
  left: boolean;
}

/**
 * Serves a Fetch handler on `node:http`: builds a `Request` from the
 * incoming message (the body streamed, never buffered here — the handler
 * reads what it allows), and writes the `Response` back: a body that is one
 * chunk in one write with its length, a longer one chunk by chunk.
 *
 * The `Request` has no signal of its own to abort: a client that goes away
 * before its answer is complete is recorded instead (`clientLeft`), which
 * costs nothing on the requests whose answer is written in full.
 */
export function nodeListener(
  handler: (request: Request) => Promise<Response>,
  onError: (error: unknown) => void,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    const exchange: Exchange = { request: undefined, left: false };
    void serve(handler, incoming, outgoing, exchange).catch((error: unknown) => {
      // Writing to a client that went away fails too: nobody to answer, nothing to log.
      if (!exchange.left && !(error instanceof ClientClosedError)) onError(error);
      if (!outgoing.headersSent) {
        outgoing.writeHead(500, { 'content-type': 'application/problem+json' });
        outgoing.end(JSON.stringify({ type: 'https://passmint.dev/problems/internal-error', title: 'Internal error', status: 500, code: 'internal-error' }));
      } else {
        outgoing.destroy();
      }
    });
  };
}

/** Records that the exchange's client went away before its answer was complete. */
function leave(exchange: Exchange): void {
  exchange.left = true;
  if (exchange.request !== undefined) rememberClientLeft(exchange.request);
}

/** An answer whose body is all here: the head, the body and the end in one write. */
function writeWhole(outgoing: ServerResponse, status: number, headers: Record<string, string | string[]>, body: Uint8Array | undefined): void {
  outgoing.cork();
  outgoing.writeHead(status, headers);
  if (body !== undefined && body.byteLength > 0) outgoing.write(body);
  outgoing.end();
  outgoing.uncork();
}

async function serve(handler: (request: Request) => Promise<Response>, incoming: IncomingMessage, outgoing: ServerResponse, exchange: Exchange): Promise<void> {
  const host = incoming.headers.host ?? 'localhost';
  // A request target that is not a path (`*`, an absolute URL) is answered like any unknown path.
  const target = incoming.url?.startsWith('/') === true ? incoming.url : '/';
  // Joined as text: resolving `//x` against a base would read `x` as a host.
  let url: string;
  try {
    url = new URL(`http://${host}${target}`).href;
  } catch {
    url = new URL(`http://localhost${target.replace(/[^\x21-\x7e]/g, encodeURIComponent)}`).href;
  }
  const headers = new Headers();
  for (let index = 0; index + 1 < incoming.rawHeaders.length; index += 2) {
    try {
      headers.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
    } catch {
      // A header value fetch refuses (Node's parser let it through): leave it out.
    }
  }
  const method = incoming.method ?? 'GET';
  // Methods fetch's Request refuses to carry (it throws): answered here, as a method no route serves.
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    outgoing.writeHead(501, { 'content-type': 'application/problem+json', connection: 'close' });
    outgoing.end(
      JSON.stringify({
        type: 'https://passmint.dev/problems/method-not-implemented',
        title: 'Method not implemented',
        status: 501,
        detail: `${method} is not served here.`,
        code: 'method-not-implemented',
      }),
    );
    return;
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // Closed before the answer was written in full: the client went away.
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) leave(exchange);
  });
  const request = new Request(url, {
    method,
    headers,
    ...(hasBody ? { body: bodyStream(incoming, exchange), duplex: 'half' } : {}),
  } as RequestInit);
  exchange.request = request;
  if (exchange.left) rememberClientLeft(request);
  rememberClientAddress(request, incoming.socket.remoteAddress);
  const response = await handler(request);
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  const bytes = method === 'HEAD' || !(response instanceof BytesResponse) ? undefined : response.takeBytes();
  if (bytes !== undefined) {
    // Bytes in memory (a JSON answer, a package): the head, the bytes and the end in one write, no stream.
    writeWhole(outgoing, response.status, outHeaders, bytes);
  } else if (response.body === null || method === 'HEAD') {
    outgoing.writeHead(response.status, outHeaders);
    outgoing.end();
  } else {
    const reader = response.body.getReader();
    type Read = Awaited<ReturnType<typeof reader.read>>;
    const first: Read = await reader.read();
    const second: Read = first.done ? first : await reader.read();
    if (second.done) {
      // The whole body in one chunk (every JSON answer, a .pkpass): the head, the chunk and the end in one write.
      // (Still chunked: with a Content-Length instead, a pipelined request behind a refused, unread body went unanswered.)
      writeWhole(outgoing, response.status, outHeaders, first.done ? undefined : first.value);
    } else {
      outgoing.writeHead(response.status, outHeaders);
      // The two chunks already read, then the rest as it comes.
      let read: Read | undefined = second;
      for (let next: Read = first; !next.done; ) {
        if (!outgoing.write(next.value)) await new Promise((resolve) => outgoing.once('drain', resolve));
        next = read ?? (await reader.read());
        read = undefined;
      }
      outgoing.end();
    }
  }
  // A body the handler never read (a 401 before it): drain it too, so the client can read the answer.
  if (hasBody && !incoming.readableEnded) drain(incoming);
}

/** The methods the Fetch standard forbids in a Request. */
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

// What is drained of a body the handler stopped reading (a 413) before the connection is cut.
const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * The request body as a web stream that reads only when asked. Cancelling it
 * (the handler stops at its size limit) drains the rest instead of resetting
 * the connection, so the client gets to read the 413 — up to a limit, after
 * which the connection is cut. A client that goes away mid-body is recorded
 * as gone first, then fails the stream with a {@link ClientClosedError}
 * (not the socket's ECONNRESET, which reads like a lost database connection).
 */
function bodyStream(incoming: IncomingMessage, exchange: Exchange): ReadableStream<Uint8Array> {
  const iterator = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: IteratorResult<Buffer>;
      try {
        next = await iterator.next();
      } catch {
        leave(exchange);
        controller.error(new ClientClosedError());
        return;
      }
      if (next.done === true) controller.close();
      else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
    },
    cancel() {
      drain(incoming);
    },
  });
}

function drain(incoming: IncomingMessage): void {
  // The body stream's async iterator listens for 'readable', and while anything does, resume() does not make the
  // stream flow: the rest of the body stayed unread and the next request on the connection was answered with a reset.
  incoming.removeAllListeners('readable');
  let drained = 0;
  incoming.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > MAX_DRAIN_BYTES) incoming.destroy();
  });
  incoming.resume();
}
