import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { describe, expect, test } from 'vitest';
import { PrivateAddressRefusal } from '../../src/webhooks/guarded-fetch/contract.js';
import type { PostInit } from '../../src/webhooks/guarded-fetch/contract.js';
import { createNodeTransport, nodeTransport } from '../../src/webhooks/guarded-fetch/node.js';
import type { ResolveAll } from '../../src/webhooks/guarded-fetch/node.js';
import { checkWebhookUrl, createDelivery, createEvent, deliver, dispatchEvent, verifyEndpoint, WebhookError } from '../../src/webhooks/index.js';
import type { FetchLike } from '../../src/webhooks/index.js';
import { isPrivateAddress } from '../../src/webhooks/private-address.js';
import { passData } from './fixtures.js';
import { closedUrl, trackedServers } from './servers.js';

const secret = 'whsec_ssrf';
const event = createEvent('pass.updated', passData);
const server = trackedServers();

// This machine's own name resolves to a private or loopback address on
// most hosts (127.0.0.1 here, the container's address under Docker): a real
// name through the real resolver. Where it does not, that one test is skipped.
const self = hostname();
const selfAddresses = await lookup(self, { all: true }).catch(() => []);

/** A fetch that counts its calls: any call at all is a failure of the tests below. */
function countingFetch(): { fetch: FetchLike; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    fetch: async () => {
      calls++;
      return new Response(null, { status: 204 });
    },
  };
}

async function thrown(promise: Promise<unknown>): Promise<WebhookError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookError);
  return error as WebhookError;
}

// Hosts as a customer could type them; WHATWG URL parsing turns the IPv4
// spellings into dotted quads and IPv6 into its compressed hex form first.
const refusedHosts = [
  // loopback, in every spelling
  '127.0.0.1',
  '127.1',
  '127.0.0.1.',
  '2130706433',
  '0x7f.1',
  '0x7f000001',
  '0177.0.0.1',
  '127.255.255.254',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:7f00:1]',
  '[::127.0.0.1]',
  'localhost',
  'LOCALHOST.',
  'api.localhost',
  // unspecified
  '0.0.0.0',
  '0',
  '[::]',
  // private, shared, special
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '100.64.0.1',
  '100.127.255.255',
  '192.0.0.1',
  '198.18.0.1',
  '198.19.255.255',
  // link-local: cloud metadata
  '169.254.169.254',
  '0xa9fea9fe',
  '[::ffff:169.254.169.254]',
  '[fe80::1]',
  '[febf:ffff::1]',
  '[fd00:ec2::254]',
  '[fc00::1]',
  // multicast, reserved, broadcast
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '[ff02::1]',
  // IPv6 forms that carry a private IPv4 address to a gateway
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::a00:1]',
  '[2002:7f00:1::1]',
  '[2002:a9fe:a9fe::]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  '[::ffff:0:10.0.0.1]',
];

const publicHosts = [
  'hooks.example.com',
  '93.184.216.34',
  '11.0.0.1',
  '172.15.255.255',
  '172.32.0.1',
  '100.63.255.255',
  '100.128.0.1',
  '169.253.255.255',
  '169.255.0.1',
  '192.0.1.1',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.1',
  '223.255.255.255',
  '[2606:4700:4700::1111]',
  '[64:ff9b::808:808]',
  '[2002:808:808::1]',
  '[::ffff:8.8.8.8]',
  '[fe7f::1]',
  '[fbff::1]',
  'localhost.example.com',
  '127.0.0.1.example.com',
];

describe('destinations refused by the URL alone: in every runtime, before any network call', () => {
  test.each(refusedHosts)('%s: private-address from deliver, verifyEndpoint, dispatchEvent and checkWebhookUrl', async (host) => {
    const url = `http://${host}:8080/hooks`;
    const { fetch, calls } = countingFetch();
    const delivery = await createDelivery(event, secret);
    expect((await thrown(deliver(url, delivery, { fetch }))).code).toBe('private-address');
    expect((await thrown(verifyEndpoint(url, secret, { fetch }))).code).toBe('private-address');
    const registrations = [{ url, secret, state: 'enabled' as const }];
    expect((await thrown(dispatchEvent(event, registrations, { fetch }))).code).toBe('private-address');
    expect(() => checkWebhookUrl(url)).toThrow(expect.objectContaining({ code: 'private-address' }));
    expect(calls()).toBe(0);
  });

  test.each(publicHosts)('%s is not refused by the URL', (host) => {
    expect(checkWebhookUrl(`https://${host}/in`)).toMatch(/^https:\/\//);
  });

  test('the spellings of 127.0.0.1 refused even when a receiver listens there: it gets nothing', async () => {
    const receiver = await server((_, res) => void res.writeHead(200).end());
    const port = new URL(receiver.url).port;
    const delivery = await createDelivery(event, secret);
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '127.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', 'localhost']) {
      const error = await thrown(deliver(`http://${host}:${port}/hooks`, delivery));
      expect(error.code).toBe('private-address');
    }
    expect(receiver.hits()).toBe(0);
  });

  test('allowPrivateNetworks: true lets a loopback receiver through', async () => {
    const receiver = await server((_, res) => void res.writeHead(204).end());
    const port = new URL(receiver.url).port;
    const delivery = await createDelivery(event, secret);
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1']) {
      expect(await deliver(`http://${host}:${port}/hooks`, delivery, { allowPrivateNetworks: true })).toEqual({
        ok: true,
        outcome: 'received',
        status: 204,
      });
    }
    expect(checkWebhookUrl('http://10.0.0.7/in', { allowPrivateNetworks: true })).toBe('http://10.0.0.7/in');
    expect(receiver.hits()).toBe(3);
  });

  test('an open and a closed port give the same error: the refusal says nothing about the target', async () => {
    const receiver = await server((_, res) => void res.writeHead(200).end());
    const delivery = await createDelivery(event, secret);
    const open = await thrown(verifyEndpoint(receiver.url, secret));
    const closed = await thrown(verifyEndpoint(await closedUrl(), secret));
    const alsoClosed = await thrown(deliver(await closedUrl(), delivery));
    expect([open.code, open.message]).toEqual([closed.code, closed.message]);
    expect(alsoClosed.message).toBe(open.message);
    expect(open.message).not.toMatch(/127|\d{4,5}|ECONN/);
  });

  test('allowPrivateNetworks must be a boolean: the string "false" would be truthy', async () => {
    const delivery = await createDelivery(event, secret);
    const options = { allowPrivateNetworks: 'false' as unknown as boolean };
    expect((await thrown(deliver('https://hooks.example.com/in', delivery, options))).code).toBe('invalid-argument');
    expect(() => checkWebhookUrl('https://hooks.example.com/in', options)).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
  });
});

describe('isPrivateAddress on the text a resolver returns', () => {
  test.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.1.2.3', true],
    ['fe80::1%eth0', true],
    ['FE80::1', true],
    ['fd12:3456:789a::1', true],
    ['8.8.8.8', false],
    ['2606:4700:4700::1111', false],
    ['::ffff:8.8.8.8', false],
    ['1:2:3:4:5:6:7:8', false],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  test.each(['', 'localhost', '1.2.3', '1.2.3.4.5', '256.0.0.1', '01.2.3.4x', '1:2:3:4:5:6:7:8:9', '1::2::3', ':::', '::ffff:256.0.0.1', 'g::1', '12345::'])(
    '%j is no address: undefined (and the resolver guard refuses it)',
    (text) => {
      expect(isPrivateAddress(text)).toBeUndefined();
    },
  );
});

describe('host names, in Node: checked on the address actually connected to', () => {
  const init = (): PostInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
    signal: new AbortController().signal,
  });

  /** A resolver that answers every name with `addresses` and counts the lookups. */
  function resolver(...addresses: string[]): { resolve: ResolveAll; lookups: () => number } {
    let lookups = 0;
    return {
      lookups: () => lookups,
      resolve: (_, __, callback) => {
        lookups++;
        callback(
          null,
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
      },
    };
  }

  test('a name whose DNS answer is 127.0.0.1 is not connected to, though a receiver listens there', async () => {
    const receiver = await server((_, res) => void res.writeHead(200).end());
    const { resolve, lookups } = resolver('127.0.0.1');
    const transport = createNodeTransport(resolve);
    const url = new URL(`http://hooks.example.com:${new URL(receiver.url).port}/hooks`);
    await expect(transport.guardedFetch(url, init(), false)).rejects.toBeInstanceOf(PrivateAddressRefusal);
    expect(receiver.hits()).toBe(0);
    // One lookup, whose answer is both what was checked and where the socket would go: no second resolution to rebind.
    expect(lookups()).toBe(1);
    // The same resolver with the switch on connects to that very answer: the receiver gets the request.
    const response = await transport.guardedFetch(url, init(), true);
    expect(response.status).toBe(200);
    expect(receiver.hits()).toBe(1);
  });

  test('one private address among public ones refuses the name (a rebinding answer)', async () => {
    const receiver = await server((_, res) => void res.writeHead(200).end());
    const port = new URL(receiver.url).port;
    for (const answer of [['203.0.113.7', '127.0.0.1'], ['2606:4700::1', '::ffff:127.0.0.1'], ['169.254.169.254'], ['fe80::1%lo']]) {
      const transport = createNodeTransport(resolver(...answer).resolve);
      await expect(transport.guardedFetch(new URL(`http://rebind.example:${port}/`), init(), false)).rejects.toBeInstanceOf(PrivateAddressRefusal);
    }
    // An answer that is not an address at all is refused too.
    const junk = createNodeTransport(resolver('not-an-address').resolve);
    await expect(junk.guardedFetch(new URL(`http://junk.example:${port}/`), init(), false)).rejects.toBeInstanceOf(PrivateAddressRefusal);
    expect(receiver.hits()).toBe(0);
  });

  test('the system resolver: localhost (here past the URL check, straight to the transport) is refused at connect', async () => {
    const receiver = await server((_, res) => void res.writeHead(200).end());
    const url = new URL(`http://localhost:${new URL(receiver.url).port}/hooks`);
    await expect(nodeTransport.guardedFetch(url, init(), false)).rejects.toBeInstanceOf(PrivateAddressRefusal);
    expect(receiver.hits()).toBe(0);
  });

  // See `self` at the top of the file.
  test.runIf(selfAddresses.length > 0 && selfAddresses.every(({ address }) => isPrivateAddress(address) === true))(
    `deliver and verifyEndpoint to this machine's name (${self}) report private-address and connect to nothing`,
    async () => {
      const receiver = await server((_, res) => void res.writeHead(200).end());
      const url = `http://${self}:${new URL(receiver.url).port}/hooks`;
      expect(await deliver(url, await createDelivery(event, secret))).toEqual({
        ok: false,
        outcome: 'retry',
        reason: 'private-address',
        error: 'Not sent: the host name resolves to a private, loopback, link-local or multicast address',
      });
      expect(await verifyEndpoint(url, secret)).toMatchObject({ verified: false, reason: 'private-address' });
      const [result] = await dispatchEvent(event, [{ url, secret, state: 'enabled' }]);
      expect(result?.result).toMatchObject({ ok: false, reason: 'private-address' });
      expect(receiver.hits()).toBe(0);
      // With the switch, the same name is delivered to.
      expect(await deliver(url, await createDelivery(event, secret), { allowPrivateNetworks: true })).toMatchObject({ outcome: 'received' });
    },
  );
});

describe('credentials in a webhook URL', () => {
  const password = 's3cr3t-pa55';
  const withCredentials = [
    `http://alice:${password}@hooks.example.com/in`,
    `https://alice:${password}@hooks.example.com:8443/in`,
    `https://${password}@hooks.example.com/in`,
    `https://alice:${password}@127.0.0.1/in`,
    // Not even a URL: the message must not echo it either.
    `http://alice:${password}@hooks example.com/in`,
  ];

  test.each(withCredentials)('%s: invalid-url, and the password is in no message', async (url) => {
    const { fetch, calls } = countingFetch();
    const delivery = await createDelivery(event, secret);
    const errors = [
      await thrown(deliver(url, delivery, { fetch })),
      await thrown(verifyEndpoint(url, secret, { fetch })),
      await thrown(dispatchEvent(event, [{ url, secret, state: 'enabled' }], { fetch })),
    ];
    try {
      checkWebhookUrl(url, { allowPrivateNetworks: true });
    } catch (error) {
      errors.push(error as WebhookError);
    }
    expect(errors.map((error) => error.code)).toEqual(['invalid-url', 'invalid-url', 'invalid-url', 'invalid-url']);
    for (const error of errors) {
      expect(`${error.message} ${error.stack ?? ''} ${JSON.stringify(error)}`).not.toContain(password);
    }
    expect(calls()).toBe(0);
  });

  test('a redirect to a URL with credentials is logged without them', async () => {
    const receiver = await server((_, res) => void res.writeHead(302, { Location: `http://bob:${password}@elsewhere.example/x` }).end());
    const result = await deliver(receiver.url, await createDelivery(event, secret), { allowPrivateNetworks: true });
    expect(result).toEqual({
      ok: false,
      outcome: 'retry',
      status: 302,
      error: 'Redirect to http://elsewhere.example/x not followed: a webhook URL must answer itself',
    });
  });
});
