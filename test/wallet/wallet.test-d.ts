import { describe, expectTypeOf, test } from 'vitest';
import { classifyPush, createApnsClient, notifyPassUpdated, type NotifyResult, type PushOutcome, type PushResult } from '../../src/apns/index.js';
import {
  createMemoryWalletStore,
  createWalletHandler,
  type UpdatedSerials,
  type WalletEvent,
  type WalletHandler,
  type WalletProblemCode,
  type WalletStore,
} from '../../src/wallet/index.js';

describe('passmint/wallet and passmint/apns types', () => {
  test('the handler is a Fetch-API function; findPass may answer now or later, with bytes or a function', () => {
    const store: WalletStore = createMemoryWalletStore();
    const handler = createWalletHandler({
      store,
      findPass: async (passTypeIdentifier, serialNumber, request) => {
        expectTypeOf(passTypeIdentifier).toEqualTypeOf<string>();
        expectTypeOf(serialNumber).toEqualTypeOf<string>();
        expectTypeOf(request).toEqualTypeOf<Request>();
        return { authenticationToken: 't', lastModified: new Date(), pkpass: async () => new Uint8Array() };
      },
      onEvent: (event) => {
        expectTypeOf(event).toEqualTypeOf<WalletEvent>();
        expectTypeOf(event.type).toEqualTypeOf<'registration.created' | 'registration.deleted' | 'pass.personalized'>();
        expectTypeOf(event.data.serialNumber).toEqualTypeOf<string>();
      },
    });
    expectTypeOf(handler).toEqualTypeOf<WalletHandler>();
    expectTypeOf(handler).returns.toEqualTypeOf<Promise<Response>>();
    expectTypeOf(store.updatedSince('d', 't', undefined)).toEqualTypeOf<Promise<UpdatedSerials>>();
    expectTypeOf<'invalid-push-token'>().toMatchTypeOf<WalletProblemCode>();
    // @ts-expect-error lastModified is a Date or milliseconds, not text
    createWalletHandler({ store, findPass: () => ({ authenticationToken: 't', lastModified: 'yesterday', pkpass: new Uint8Array() }) });
  });

  test('pushes resolve to classified results; notifyPassUpdated takes any pusher', () => {
    const apns = createApnsClient({ certificate: { cert: '', key: '' } });
    expectTypeOf(apns.push('ab', 'pass.x')).toEqualTypeOf<Promise<PushResult>>();
    expectTypeOf(classifyPush(410, 'Unregistered')).toEqualTypeOf<PushOutcome>();
    expectTypeOf<PushOutcome>().toEqualTypeOf<'sent' | 'retry' | 'gone' | 'rejected'>();
    const pusher = { push: async (): Promise<PushResult> => ({ outcome: 'sent' }) };
    expectTypeOf(notifyPassUpdated({ store: createMemoryWalletStore(), apns: pusher }, 't', 's')).toEqualTypeOf<Promise<NotifyResult>>();
  });
});
