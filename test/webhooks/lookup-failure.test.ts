// A failed DNS lookup is a rejected request in both modes of the Node
// transport — never a TypeError thrown inside Node's lookup callback, which
// nothing can catch and which took the whole process down.
import { describe, expect, test } from 'vitest';
import { createNodeTransport, type ResolveAll } from '../../src/webhooks/guarded-fetch/node.js';

/** A resolver that fails as `dns.lookup` does for an unknown name: an error, and no address list at all. */
const notFound: ResolveAll = (hostname, _options, callback) => {
  const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
  (callback as unknown as (error: NodeJS.ErrnoException, addresses: undefined) => void)(error, undefined);
};

const init = () => ({ method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: '{}', signal: new AbortController().signal });

describe('the Node transport on a failed lookup', () => {
  for (const allowPrivateNetworks of [true, false]) {
    test(`rejects with the lookup's own error (allowPrivateNetworks: ${allowPrivateNetworks})`, async () => {
      const transport = createNodeTransport(notFound);
      await expect(transport.guardedFetch(new URL('http://hooks.invalid/in'), init(), allowPrivateNetworks)).rejects.toMatchObject({
        code: 'ENOTFOUND',
      });
    });
  }
});
