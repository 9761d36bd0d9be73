import { describe, expect, expectTypeOf, test } from 'vitest';
import { checkEvent, createEvent, formatEventTime, generateWebhookSecret, isEventType, parseEventTime } from '../../src/webhooks/index.js';
import type { PassEventData, UnknownWebhookEvent, WebhookEvent, WebhookEventOf } from '../../src/webhooks/index.js';
import { passData as pass } from './fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('createEvent', () => {
  test('gives a UUID id, created in YYYY-MM-DDTHH:MM:SSZ, and the type and data', () => {
    const event = createEvent('pass.created', pass, { created: new Date('2025-03-01T12:34:56.789Z') });
    expect(event).toEqual({ id: expect.stringMatching(UUID), type: 'pass.created', created: '2025-03-01T12:34:56Z', data: pass });
    expectTypeOf(event).toEqualTypeOf<WebhookEventOf<'pass.created'>>();
  });

  test('created defaults to now, whole seconds, UTC', () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const { created } = createEvent('pass.updated', pass);
    expect(created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(Date.parse(created)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(created)).toBeLessThanOrEqual(Date.now());
  });

  test('ids are fresh for every event', () => {
    const ids = new Set(Array.from({ length: 100 }, () => createEvent('pass.created', pass).id));
    expect(ids.size).toBe(100);
  });

  test('copies data: later changes to the input do not reach the event', () => {
    const data = { ...pass };
    const event = createEvent('registration.created', data);
    data.serialNumber = 'changed';
    expect(event.data.serialNumber).toBe('E5982H-I2');
  });

  test('accepts an unknown type with any JSON object as data', () => {
    const event = createEvent('pass.archived', { reason: 'refund', amount: 3 }, { id: '00000000-0000-4000-8000-000000000000', created: 0 });
    expect(event).toEqual({
      id: '00000000-0000-4000-8000-000000000000',
      type: 'pass.archived',
      created: '1970-01-01T00:00:00Z',
      data: { reason: 'refund', amount: 3 },
    });
  });

  test.each([
    ['missing data member', () => createEvent('pass.created', { serialNumber: 'x' } as PassEventData), /data\.passTypeIdentifier/],
    ['empty token', () => createEvent('webhook.verify', { token: '' }), /data\.token/],
    ['empty type', () => createEvent('', {}), /type/],
    ['id not a UUID', () => createEvent('pass.created', pass, { id: 'evt_1' }), /id/],
    ['data not JSON', () => createEvent('x.y', { big: 1n } as never), /JSON/],
    ['invalid date', () => createEvent('pass.created', pass, { created: Number.NaN }), /valid date/],
    ['year 10000', () => createEvent('pass.created', pass, { created: new Date('+010000-01-01T00:00:00Z') }), /0000–9999/],
  ])('throws invalid-event for %s', (_, make, message) => {
    expect(make).toThrow(expect.objectContaining({ name: 'WebhookError', code: 'invalid-event', message: expect.stringMatching(message) }));
  });
});

describe('createEvent types', () => {
  test('a known type only takes its own data; an unknown type takes any JSON object', () => {
    // @ts-expect-error pass.created needs passTypeIdentifier
    expect(() => createEvent('pass.created', { serialNumber: 'x' })).toThrow(expect.objectContaining({ code: 'invalid-event' }));
    // @ts-expect-error webhook.verify data is { token }
    expect(() => createEvent('webhook.verify', { secret: 'x' })).toThrow(expect.objectContaining({ code: 'invalid-event' }));
    expectTypeOf(createEvent('x.custom', { any: [1] })).toEqualTypeOf<UnknownWebhookEvent>();
  });
});

describe('isEventType', () => {
  test('narrows a received event to a known type', () => {
    const event: WebhookEvent = createEvent('pass.downloaded', pass);
    if (!isEventType(event, 'pass.downloaded')) throw new Error('expected pass.downloaded');
    expectTypeOf(event.data).toEqualTypeOf<PassEventData>();
    expect(event.data.serialNumber).toBe('E5982H-I2');
    expect(isEventType(event, 'pass.created')).toBe(false);
  });
});

describe('event times', () => {
  test.each([
    ['1970-01-01T00:00:00Z', 0],
    ['2024-02-29T23:59:59Z', Date.UTC(2024, 1, 29, 23, 59, 59)],
    ['0000-01-01T00:00:00Z', -62_167_219_200_000],
  ])('parseEventTime(%s) = %d and formats back', (text, time) => {
    expect(parseEventTime(text)).toBe(time);
    expect(formatEventTime(time)).toBe(text);
  });

  test.each([
    '2025-03-01T12:00:00.000Z',
    '2025-03-01T12:00:00+00:00',
    '2025-03-01 12:00:00Z',
    '2025-03-01T12:00Z',
    '2025-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-03-01T24:00:00Z',
    '2025-03-01T12:00:60Z',
    '2025-03-01t12:00:00z',
    '',
  ])('parseEventTime refuses %j', (text) => {
    expect(parseEventTime(text)).toBeUndefined();
  });
});

describe('checkEvent', () => {
  const valid = { id: '9f1c7d5e-3b0a-4c7e-9a51-2d7f8e6b4c10', type: 'pass.created', created: '2025-03-01T12:00:00Z', data: pass };

  test('accepts an event, extra members and upper-case UUIDs included', () => {
    expect(checkEvent(valid)).toBeUndefined();
    expect(checkEvent({ ...valid, id: valid.id.toUpperCase(), livemode: true, data: { ...pass, extra: 1 } })).toBeUndefined();
  });

  test('accepts an unknown type with any object data', () => {
    expect(checkEvent({ ...valid, type: 'something.new', data: { anything: [1, 2] } })).toBeUndefined();
  });

  test.each([
    ['not an object', [], ''],
    ['null', null, ''],
    ['id missing', { ...valid, id: undefined }, '/id'],
    ['id not UUID-shaped', { ...valid, id: '9f1c7d5e3b0a4c7e9a512d7f8e6b4c10' }, '/id'],
    ['type empty', { ...valid, type: '' }, '/type'],
    ['type not a string', { ...valid, type: 7 }, '/type'],
    ['created with fraction', { ...valid, created: '2025-03-01T12:00:00.5Z' }, '/created'],
    ['created not a real date', { ...valid, created: '2025-02-30T00:00:00Z' }, '/created'],
    ['data an array', { ...valid, data: [] }, '/data'],
    ['data null', { ...valid, data: null }, '/data'],
    ['known type missing a member', { ...valid, data: { serialNumber: 'x' } }, '/data/passTypeIdentifier'],
    ['known type with a number member', { ...valid, data: { ...pass, serialNumber: 5 } }, '/data/serialNumber'],
    ['verify without token', { ...valid, type: 'webhook.verify', data: {} }, '/data/token'],
  ])('reports %s at its path', (_, value, path) => {
    expect(checkEvent(value)?.path).toBe(path);
  });

  test('a data member inherited from the prototype does not count', () => {
    const data = Object.create({ token: 'inherited' }) as object;
    expect(checkEvent({ ...valid, type: 'webhook.verify', data })?.path).toBe('/data/token');
  });

  test('the first problem in member order, with what is wrong', () => {
    expect(checkEvent({ ...valid, id: 'x', type: undefined })).toEqual({ path: '/id', message: '`id` must be a UUID-shaped string' });
    expect(checkEvent({ ...valid, data: {} })).toEqual({
      path: '/data/serialNumber',
      message: 'A pass.created event needs `data.serialNumber` as a non-empty string',
    });
    expect(checkEvent({ ...valid, created: '2023-02-29T00:00:00Z' })).toEqual({
      path: '/created',
      message: '`created` must be a real UTC date and time; 2023-02-29T00:00:00Z is not one',
    });
  });

  test('a member whose getter throws is a problem, not an exception', () => {
    const event = {
      ...valid,
      get type(): string {
        throw new Error('boom');
      },
    };
    expect(checkEvent(event)).toEqual({ path: '', message: 'An event could not be read (a property access threw)' });
  });
});

describe('generateWebhookSecret', () => {
  test('is whsec_ and 43 base64url characters (32 random bytes), fresh every time', () => {
    const secrets = Array.from({ length: 50 }, generateWebhookSecret);
    for (const secret of secrets) expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(new Set(secrets).size).toBe(50);
  });
});
