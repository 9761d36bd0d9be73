import { afterAll, expect, test } from 'vitest';
import { buildPass, compileTemplate, type Pass, type PassTemplate } from '../src/index.js';
import { ApiError, bearerAuth, createPassClient, createPassHandler } from '../src/http/index.js';
import {
  createEvent,
  dispatchEvent,
  generateWebhookSecret,
  receiveWebhook,
  respondToVerification,
  transitionRegistration,
  verifyEndpoint,
  type WebhookEvent,
} from '../src/webhooks/index.js';
import { eventTicket, eventValues } from './fixtures.js';
import { serve, type Served } from './http/serve.js';

// The three modules together, as a pass service and one of its customers use them.
const servers: Served[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

test('a service builds a pass, serves it, and tells a verified webhook; the customer fetches and verifies', async () => {
  // The customer's webhook receiver: answers the handshake, keeps the events it verified.
  const secret = generateWebhookSecret();
  const received: WebhookEvent[] = [];
  const receiver = await serve(async (request) => {
    const event = await receiveWebhook(request, secret);
    const answer = respondToVerification(event);
    if (answer !== undefined) return answer;
    received.push(event);
    return new Response(null, { status: 204 });
  });
  servers.push(receiver);

  // The service: a template, the passes it built, the two GET endpoints.
  const templates = new Map<number, PassTemplate>([[eventTicket.id, eventTicket]]);
  const passes = new Map<string, Pass>();
  const apiKey = 'pk_live_8d1f0c6e4b2a9375';
  const service = await serve(
    createPassHandler({
      authenticate: bearerAuth([apiKey]),
      findPass: (passTypeIdentifier, serialNumber) => passes.get(`${passTypeIdentifier} ${serialNumber}`),
      findTemplate: (id) => templates.get(id),
    }),
  );
  servers.push(service);

  // Registering the webhook: pending until the handshake succeeds.
  // The receiver runs on 127.0.0.1: webhooks refuse private addresses unless allowed.
  const check = await verifyEndpoint(`${receiver.origin}/hooks`, secret, { timeoutMs: 5000, allowPrivateNetworks: true });
  expect(check.verified).toBe(true);
  const state = transitionRegistration('pending', check.verified ? 'verified' : 'verification-failed');
  expect(state).toBe('enabled');

  // Issuing a pass (its serial number has a space and a slash: URLs must carry it intact).
  const pass = buildPass(
    compileTemplate(eventTicket),
    eventValues,
    {
      teamIdentifier: 'A93A5CM278',
      organizationName: 'Example Events',
      webServiceURL: service.origin,
      serialNumber: 'ticket 12/B',
    },
    { allowHttp: true },
  );
  passes.set(`${pass.passTypeIdentifier} ${pass.serialNumber}`, pass);
  const results = await dispatchEvent(
    createEvent('pass.created', { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier }),
    [{ url: `${receiver.origin}/hooks`, secret, state }],
    { allowPrivateNetworks: true },
  );
  expect(results.map(({ result }) => result.outcome)).toEqual(['received']);
  expect(received.map((event) => [event.type, (event.data as { serialNumber: string }).serialNumber])).toEqual([['pass.created', 'ticket 12/B']]);

  // The customer reads the pass and its template back, checked on arrival.
  const client = createPassClient({ baseUrl: service.origin, apiKey, allowHttp: true }); // a development server: http
  expect(await client.getPassJson(pass.passTypeIdentifier, pass.serialNumber)).toEqual(pass);
  expect(await client.getTemplate(eventTicket.id)).toEqual(eventTicket);
  // Without allowHttp the same pass is refused on arrival, with validatePass's reason.
  const strict = createPassClient({ baseUrl: service.origin, apiKey });
  const refused = await strict.getPassJson(pass.passTypeIdentifier, pass.serialNumber).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ApiError);
  expect((refused as ApiError).code).toBe('invalid-response');
  expect((refused as ApiError).issues.map((issue) => issue.code)).toContain('insecure-web-service-url');
});
