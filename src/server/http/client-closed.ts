/**
 * The client closed its connection before its request body was complete.
 * Nobody is left to answer, and it is not the service's fault: never logged
 * as an error.
 *
 * @example
 * ```ts
 * try {
 *   await request.arrayBuffer();
 * } catch (error) {
 *   if (error instanceof ClientClosedError) return; // the client left
 * }
 * ```
 */
export class ClientClosedError extends Error {
  override name = 'ClientClosedError';
  readonly code = 'client-closed';

  constructor() {
    super('The client closed the connection before the request body was complete');
  }
}

// Requests whose client went away before their answer was written (the Node listener records them).
const left = new WeakSet<Request>();

/** Records that the client of `request` went away before its answer was complete (the Node listener does this). */
export function rememberClientLeft(request: Request): void {
  left.add(request);
}

/**
 * Whether the client of `request` went away before its answer: its signal
 * aborted (a Fetch runtime), or the Node listener saw the connection close
 * early. The Node listener gives its requests no signal to abort: making one
 * and aborting it on every close cost more than the request's routing.
 *
 * @example
 * ```ts
 * if (clientLeft(request)) return; // nobody to answer, nothing to log
 * ```
 */
export function clientLeft(request: Request): boolean {
  return left.has(request) || request.signal.aborted;
}
