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

/**
 * The network a rate limit counts an address in: an IPv4 address itself
 * (also when written IPv4-mapped, `::ffff:203.0.113.7`), and for IPv6 its
 * /64 — one subscriber's share, in which a client can pick any of 2^64
 * addresses.
 *
 * @example
 * ```ts
 * rateKeyOf('2001:db8:1:2:aaaa::7'); // '2001:db8:1:2::/64'
 * rateKeyOf('::ffff:203.0.113.7');   // '203.0.113.7'
 * ```
 */
export function rateKeyOf(address: string): string {
  const bare = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped !== null) return mapped[1]!;
  if (!bare.includes(':')) return bare;
  const halves = bare.toLowerCase().split('::');
  const head = halves[0] === '' || halves[0] === undefined ? [] : halves[0].split(':');
  const tail = halves.length < 2 || halves[1] === '' ? [] : halves[1]!.split(':');
  const groups = halves.length < 2 ? head : [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
