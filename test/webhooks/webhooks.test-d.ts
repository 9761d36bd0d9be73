import { describe, expectTypeOf, test } from 'vitest';
import {
  checkWebhookUrl,
  createDelivery,
  createEvent,
  deliver,
  isEventType,
  nextRetryDelay,
  receiveWebhook,
  type DeliveryResult,
  type NoResponseReason,
  type VerificationFailure,
  type WebhookErrorCode,
  type PassEventData,
  type RegistrationEventData,
  type UnknownWebhookEvent,
  type VerifyEventData,
  type WebhookEvent,
  type WebhookEventOf,
} from '../../src/webhooks/index.js';

describe('webhook types', () => {
  test('createEvent types the known events by their type, and accepts unknown ones', () => {
    expectTypeOf(createEvent('pass.created', { serialNumber: 's', passTypeIdentifier: 'pass.x' })).toEqualTypeOf<WebhookEventOf<'pass.created'>>();
    expectTypeOf(createEvent('webhook.verify', { token: 't' }).data).toEqualTypeOf<VerifyEventData>();
    expectTypeOf(createEvent('pass.archived', { anything: 1 })).toEqualTypeOf<UnknownWebhookEvent>();
    // @ts-expect-error a known type with the wrong data
    createEvent('pass.created', { token: 't' });
  });

  test('isEventType narrows a received event', async () => {
    const event = await receiveWebhook(new Request('http://x', { method: 'POST', body: '{}' }), 'secret');
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    if (isEventType(event, 'registration.created')) expectTypeOf(event.data).toEqualTypeOf<RegistrationEventData>();
    if (isEventType(event, 'pass.updated')) expectTypeOf(event.data).toEqualTypeOf<PassEventData>();
    // @ts-expect-error not a known type
    isEventType(event, 'pass.archived');
  });

  test('delivery and retry results are typed', async () => {
    const delivery = await createDelivery(createEvent('pass.updated', { serialNumber: 's', passTypeIdentifier: 'pass.x' }), 'secret');
    expectTypeOf(delivery.body).toEqualTypeOf<string>();
    expectTypeOf(await deliver('https://example.com/hooks', delivery)).toEqualTypeOf<DeliveryResult>();
    expectTypeOf(nextRetryDelay(1)).toEqualTypeOf<number | undefined>();
    const result = await deliver('https://example.com/hooks', delivery, { allowPrivateNetworks: false, timeoutMs: 1000 });
    if (!result.ok) expectTypeOf(result.reason).toEqualTypeOf<NoResponseReason | undefined>();
    expectTypeOf<NoResponseReason>().toEqualTypeOf<'timeout' | 'aborted' | 'network-error' | 'private-address'>();
    expectTypeOf<'private-address'>().toExtend<WebhookErrorCode>();
    expectTypeOf<'private-address'>().toExtend<VerificationFailure>();
    expectTypeOf(checkWebhookUrl('https://example.com/hooks')).toEqualTypeOf<string>();
    // @ts-expect-error the switch is a boolean
    void deliver('https://example.com/hooks', delivery, { allowPrivateNetworks: 'yes' });
  });
});
