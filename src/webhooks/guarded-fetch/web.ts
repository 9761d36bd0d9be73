import type { GuardedTransport } from './contract.js';

/**
 * The transport of browsers, Deno, Bun and edge workers: the global `fetch`,
 * which gives no control over DNS or the connected address. Only the URL's
 * literal host is checked there (by the caller); browsers and most edge
 * runtimes keep pages and workers away from private networks themselves.
 *
 * @example
 * ```ts
 * await webTransport.guardedFetch(new URL('https://hooks.example/in'), init, false);
 * ```
 */
export const webTransport: GuardedTransport = {
  checksResolvedAddresses: false,
  // Looked up at each call, so a fetch installed later (a polyfill, a test's mock) is used.
  guardedFetch: (url, init) => globalThis.fetch(url.href, { ...init, redirect: 'manual' }),
};

/** @see webTransport */
export const checksResolvedAddresses: GuardedTransport['checksResolvedAddresses'] = webTransport.checksResolvedAddresses;
/** @see webTransport */
export const guardedFetch: GuardedTransport['guardedFetch'] = webTransport.guardedFetch;
