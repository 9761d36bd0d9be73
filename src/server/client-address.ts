// Where a request came from. The Node listener records the socket's address
// beside the Request (a Request has no field for it); a request handled
// without it (the Fetch handler called directly) has no address unless a
// trusted proxy's X-Forwarded-For gives one.

const addresses = new WeakMap<Request, string>();

/** Records the peer address of a request (the Node listener does this). */
export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address !== undefined && address !== '') addresses.set(request, address);
}

/**
 * The client's address: with `trustProxy`, the last address of
 * `X-Forwarded-For` (the one the nearest proxy added), else the socket's.
 * `undefined` when neither is known.
 *
 * @example
 * ```ts
 * const address = clientAddressOf(request, false); // '203.0.113.7'
 * ```
 */
export function clientAddressOf(request: Request, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded?.split(',').at(-1)?.trim();
    if (last !== undefined && last !== '') return last.slice(0, 64);
  }
  return addresses.get(request);
}
