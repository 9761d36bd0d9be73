import { describe, expect, test } from 'vitest';
import { bearerAuth, readBearerToken } from '../../src/http/bearer-auth.js';

function withAuthorization(authorization?: string): Request {
  return new Request('http://localhost/', authorization === undefined ? {} : { headers: { authorization } });
}

describe('bearerAuth', () => {
  const authenticate = bearerAuth(['key-one', 'key-two!~']);

  test.each(['Bearer key-one', 'Bearer key-two!~', 'bearer key-one', 'BEARER   key-one', 'Bearer key-one  '])('%j is accepted', async (authorization) => {
    expect(await authenticate(withAuthorization(authorization))).toBe(true);
  });

  test.each([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'Basic key-one',
    'Bearerkey-one',
    'Bearer key-on',
    'Bearer key-one1',
    'Bearer KEY-ONE',
    'Bearer key-one key-two!~',
    'Token key-one',
  ])('%j is refused', async (authorization) => {
    expect(await authenticate(withAuthorization(authorization))).toBe(false);
  });

  test('a single key may be given as a string', async () => {
    expect(await bearerAuth('solo')(withAuthorization('Bearer solo'))).toBe(true);
  });

  test('misuse is a TypeError', () => {
    expect(() => bearerAuth([])).toThrow(TypeError);
    expect(() => bearerAuth('')).toThrow(TypeError);
    expect(() => bearerAuth(['ok', 'has space'])).toThrow(TypeError);
    expect(() => bearerAuth(['caf\u00e9'])).toThrow(TypeError);
    expect(() => bearerAuth([42 as unknown as string])).toThrow(TypeError);
    expect(() => bearerAuth(undefined as unknown as string)).toThrow(TypeError);
  });

  test('the key list is copied: changing it later changes nothing', async () => {
    const keys = ['first'];
    const check = bearerAuth(keys);
    keys[0] = 'second';
    expect(await check(withAuthorization('Bearer first'))).toBe(true);
    expect(await check(withAuthorization('Bearer second'))).toBe(false);
  });
});

describe('readBearerToken', () => {
  test.each([
    [null, undefined],
    ['Bearer abc', 'abc'],
    ['bearer\tabc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    ['Bearer a b', 'a b'],
    ['Bearer ', undefined],
    ['Bearer', undefined],
    ['Basic abc', undefined],
    ['Bearerabc', undefined],
  ])('%j → %j', (header, token) => {
    expect(readBearerToken(header)).toBe(token);
  });
});
