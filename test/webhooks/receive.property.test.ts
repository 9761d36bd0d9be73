import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createDelivery, createEvent, receiveWebhook, signPayload, WebhookError } from '../../src/webhooks/index.js';
import { RUNS } from '../arbitraries.js';

const secret = 'whsec_property';
const body = fc.oneof(
  fc.string(),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.uint8Array({ maxLength: 64 }),
  fc.record({ id: fc.string(), type: fc.string(), created: fc.string(), data: fc.anything() }).map((value) => JSON.stringify(value)),
);

describe('receiveWebhook on any delivery', () => {
  test('returns an event or throws a WebhookError with a code — nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), fc.option(fc.string()), async (payload, signIt, header) => {
        const signature = signIt ? await signPayload(payload, secret) : (header ?? undefined);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (signature !== undefined) headers['x-service-signature'] = signature.replace(/[\r\n\0]/g, '');
        try {
          const event = await receiveWebhook({ body: payload, headers }, secret);
          expect(signIt).toBe(true);
          expect(typeof event.type).toBe('string');
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookError);
          expect(typeof (error as WebhookError).code).toBe('string');
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('what createDelivery sends, receiveWebhook returns unchanged', async () => {
    const data = fc.record({ serialNumber: fc.string({ minLength: 1 }), passTypeIdentifier: fc.string({ minLength: 1 }) });
    await fc.assert(
      fc.asyncProperty(data, async (payload) => {
        const event = createEvent('pass.created', payload);
        const delivery = await createDelivery(event, secret);
        expect(await receiveWebhook({ body: delivery.body, headers: delivery.headers }, [secret])).toEqual(event);
      }),
      { numRuns: RUNS },
    );
  });
});
