import { describe, expect, test } from 'vitest';
import { createEvent, dispatchEvent, generateWebhookSecret, receiveWebhook } from '../../src/webhooks/index.js';
import type { FetchLike, RegistrationState, WebhookEvent } from '../../src/webhooks/index.js';
import { passData } from './fixtures.js';
import { trackedServers } from './servers.js';

const event = createEvent('registration.created', passData);
const server = trackedServers();
// The receivers run on 127.0.0.1, which deliveries refuse unless asked.
const local = { allowPrivateNetworks: true } as const;

interface Registration {
  readonly id: number;
  readonly url: string;
  readonly secret: string;
  readonly state: RegistrationState;
}

describe('dispatchEvent', () => {
  test('fan-out to 50 receivers on 127.0.0.1, each verifying with its own secret, all in flight at once', async () => {
    const received = new Map<number, WebhookEvent>();
    // A barrier: no receiver answers before all 50 requests have arrived, so
    // the test passes only if every request is in flight at the same time
    // (one-by-one sending would stall here and get 503s).
    let arrived = 0;
    let release: () => void = () => undefined;
    const allArrived = new Promise<void>((resolve) => (release = resolve));
    const registrations: Registration[] = await Promise.all(
      Array.from({ length: 50 }, async (_, id) => {
        const secret = generateWebhookSecret();
        const receiver = await server(async (req, res) => {
          received.set(id, await receiveWebhook(req, secret)); // throws (→ 599) on a wrong signature
          if (++arrived === 50) release();
          const giveUp = new Promise<boolean>((resolve) => {
            const timer = setTimeout(resolve, 5000, false);
            void allArrived.then(() => clearTimeout(timer));
          });
          const together = await Promise.race([allArrived.then(() => true), giveUp]);
          res.writeHead(together ? 200 : 503).end();
        });
        return { id, url: receiver.url, secret, state: 'enabled' as const };
      }),
    );
    const results = await dispatchEvent(event, registrations, local);
    expect(results.map(({ registration, result }) => [registration.id, result.outcome])).toEqual(registrations.map(({ id }) => [id, 'received']));
    expect(received.size).toBe(50);
    for (const got of received.values()) expect(got).toEqual(event);
  });

  test('skips pending and disabled registrations; reports each enabled one, in order, whatever its outcome', async () => {
    const ok = await server((_, res) => void res.writeHead(200).end());
    const gone = await server((_, res) => void res.writeHead(410).end());
    const failing = await server((_, res) => void res.writeHead(500).end());
    const registrations: Registration[] = [
      { id: 1, url: ok.url, secret: 's1', state: 'enabled' },
      { id: 2, url: ok.url, secret: 's2', state: 'pending' },
      { id: 3, url: gone.url, secret: 's3', state: 'enabled' },
      { id: 4, url: ok.url, secret: 's4', state: 'disabled' },
      { id: 5, url: failing.url, secret: 's5', state: 'enabled' },
    ];
    const results = await dispatchEvent(event, registrations, local);
    expect(results.map(({ registration, result }) => [registration.id, result.outcome, result.status])).toEqual([
      [1, 'received', 200],
      [3, 'gone', 410],
      [5, 'retry', 500],
    ]);
    expect(ok.hits()).toBe(1);
  });

  test('signs for each registration with its own secret', async () => {
    const signatures = new Map<string, string>();
    const fetch: FetchLike = async (url, init) => {
      signatures.set(String(url), new Headers(init?.headers).get('x-service-signature') ?? '');
      return new Response(null, { status: 200 });
    };
    await dispatchEvent(
      event,
      [
        { url: 'https://a.example/', secret: 'secret-a', state: 'enabled' },
        { url: 'https://b.example/', secret: 'secret-b', state: 'enabled' },
      ],
      { fetch },
    );
    expect(signatures.size).toBe(2);
    expect(signatures.get('https://a.example/')).not.toBe(signatures.get('https://b.example/'));
  });

  test('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const fetch: FetchLike = async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
      return new Response(null, { status: 204 });
    };
    const registrations = Array.from({ length: 40 }, (_, index) => ({ url: `https://r${index}.example/`, secret: `s${index}`, state: 'enabled' as const }));
    const results = await dispatchEvent(event, registrations, { fetch, concurrency: 5 });
    expect(results).toHaveLength(40);
    expect(most).toBe(5);
  });

  test('no enabled registration: nothing sent, no result', async () => {
    expect(await dispatchEvent(event, [{ url: 'https://a.example/', secret: 's', state: 'pending' }])).toEqual([]);
  });

  test('a bad URL or secret among the enabled throws before anything is sent', async () => {
    let sent = 0;
    const fetch: FetchLike = async () => {
      sent++;
      return new Response(null);
    };
    const good = { url: 'https://a.example/', secret: 's', state: 'enabled' as const };
    await expect(dispatchEvent(event, [good, { ...good, url: 'nope' }], { fetch })).rejects.toMatchObject({ code: 'invalid-url' });
    await expect(dispatchEvent(event, [good, { ...good, secret: '' }], { fetch })).rejects.toMatchObject({ code: 'invalid-secret' });
    expect(sent).toBe(0);
  });
});
