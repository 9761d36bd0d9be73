/** The one kind of request a webhook makes: a signed POST that follows no redirect. */
export interface PostInit {
  readonly method: 'POST';
  readonly headers: { readonly [name: string]: string };
  readonly body: string;
  readonly signal: AbortSignal;
}

/**
 * What both transports provide. `#guarded-fetch` resolves to `./node.js`
 * (node:http and node:https with a DNS hook) under the `node` condition and
 * to `./web.js` (the global `fetch`) everywhere else.
 *
 * Callers have already refused URLs whose host is a private IP literal (or
 * `localhost`) unless private networks are allowed; the Node transport also
 * refuses, before connecting, host names that resolve to such addresses.
 */
export interface GuardedTransport {
  /** Whether host names are checked on the address actually connected to. */
  readonly checksResolvedAddresses: boolean;
  /** POSTs once; rejects with `PrivateAddressRefusal` for a refused resolved address. */
  readonly guardedFetch: (url: URL, init: PostInit, allowPrivateNetworks: boolean) => Promise<Response>;
}

/** Why a guarded request was not sent: the host name resolved to a refused address. */
export class PrivateAddressRefusal extends Error {
  override name = 'PrivateAddressRefusal';
}
