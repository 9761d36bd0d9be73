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
