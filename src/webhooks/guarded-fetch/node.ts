// Selected by the `node` condition of `#guarded-fetch`: the global fetch gives
// no hook between DNS and connect, so a name checked before the request could
// resolve differently when fetch connects (DNS rebinding). node:http's
// `lookup` option is that hook: the address checked is the address connected to.
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { isPrivateAddress } from '../private-address.js';
import { PrivateAddressRefusal } from './contract.js';
import type { GuardedTransport, PostInit } from './contract.js';

/** `dns.lookup` with `all: true`: every address a host name resolves to. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolve: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * Wraps a resolver so that a host name with any refused address among its
 * answers fails before a socket is opened. One refused address refuses the
 * name: a mixed answer is how rebinding attacks look, and connecting to "the
 * public one" would depend on the order a happy-eyeballs connect tries them.
 */
function guardedLookup(resolve: ResolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, '', 0);
      const first = addresses[0];
      if (first === undefined || addresses.some(({ address }) => isPrivateAddress(address) !== false)) {
        return callback(new PrivateAddressRefusal('The host name resolves to a refused address'), '', 0);
      }
      if (options.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

function openLookup(resolve: ResolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      // On a failed lookup (NXDOMAIN) Node gives no array: read it only after the error check.
      if (error !== null) return callback(error, '', 0);
      const first = addresses[0];
      if (first === undefined) return callback(new Error(`No address for ${hostname}`), '', 0);
      if (options.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

// Statuses whose response cannot have a body in the Fetch API.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function toResponse(message: IncomingMessage): Response {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index] as string, raw[index + 1] as string);
    } catch {
      // A header the Fetch API cannot hold: nothing here reads it.
    }
  }
  const status = message.statusCode ?? 0;
  if (NULL_BODY.has(status)) message.resume();
  const body = NULL_BODY.has(status) ? null : (Readable.toWeb(message) as unknown as ReadableStream<Uint8Array>);
  try {
    return new Response(body, { status, statusText: message.statusMessage ?? '', headers });
  } catch {
    // A reason phrase the Fetch API refuses; the status is what counts.
    return new Response(body, { status, headers });
  }
}

/**
 * A Node transport on node:http and node:https. Each mode has its own
 * keep-alive agents, so a pooled socket was always checked by the lookup of
 * its own mode (a connection opened without the guard is never reused by a
 * guarded request). `resolve` is `dns.lookup` unless a test gives another.
 *
 * @example
 * ```ts
 * const transport = createNodeTransport((host, options, done) => done(null, [{ address: '127.0.0.1', family: 4 }]));
 * await transport.guardedFetch(new URL('http://hooks.example/'), init, false); // rejects: PrivateAddressRefusal
 * ```
 */
export function createNodeTransport(resolve: ResolveAll = systemResolve): GuardedTransport {
  const agents = {
    guarded: {
      http: new HttpAgent({ keepAlive: true, lookup: guardedLookup(resolve) }),
      https: new HttpsAgent({ keepAlive: true, lookup: guardedLookup(resolve) }),
    },
    open: {
      http: new HttpAgent({ keepAlive: true, lookup: openLookup(resolve) }),
      https: new HttpsAgent({ keepAlive: true, lookup: openLookup(resolve) }),
    },
  };
  return {
    checksResolvedAddresses: true,
    guardedFetch(url: URL, init: PostInit, allowPrivateNetworks: boolean): Promise<Response> {
      const secure = url.protocol === 'https:';
      const pool = allowPrivateNetworks ? agents.open : agents.guarded;
      const body = Buffer.from(init.body, 'utf8');
      return new Promise<Response>((resolvePromise, reject) => {
        const options = {
          method: init.method,
          headers: { ...init.headers, 'Content-Length': String(body.byteLength) },
          signal: init.signal,
        };
        const onResponse = (message: IncomingMessage): void => {
          // The caller's signal also covers reading the body.
          init.signal.addEventListener('abort', () => message.destroy(init.signal.reason as Error), { once: true });
          try {
            resolvePromise(toResponse(message));
          } catch (error) {
            message.destroy();
            reject(error);
          }
        };
        const outgoing = secure
          ? httpsRequest(url, { ...options, agent: pool.https }, onResponse)
          : httpRequest(url, { ...options, agent: pool.http }, onResponse);
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    },
  };
}

/**
 * The Node transport used by `deliver`, `verifyEndpoint` and `dispatchEvent`
 * when no `fetch` is given.
 *
 * @example
 * ```ts
 * nodeTransport.checksResolvedAddresses; // true
 * ```
 */
export const nodeTransport: GuardedTransport = createNodeTransport();

/** @see nodeTransport */
export const checksResolvedAddresses: GuardedTransport['checksResolvedAddresses'] = nodeTransport.checksResolvedAddresses;
/** @see nodeTransport */
export const guardedFetch: GuardedTransport['guardedFetch'] = nodeTransport.guardedFetch;
