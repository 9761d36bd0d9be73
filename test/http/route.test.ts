import { describe, expect, test } from 'vitest';
import { decodeSegment, matchRoute, normalizeBasePath, parseTemplateId, pathOf } from '../../src/http/route.js';

describe('pathOf', () => {
  test.each([
    ['https://example.com/v1/templates/1?x=1', '/v1/templates/1'],
    ['https://example.com/v1/templates/1#x', '/v1/templates/1'],
    ['https://example.com/a?b#c', '/a'],
    ['https://example.com/a#b?c', '/a'],
    ['https://example.com', '/'],
    ['https://user:pw@example.com:8443/a%2Fb', '/a%2Fb'],
    ['/relative/path', '/relative/path'],
  ])('%s → %s', (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});

describe('normalizeBasePath', () => {
  test.each([
    ['', ''],
    ['/', ''],
    ['///', ''],
    ['api', '/api'],
    ['/api', '/api'],
    ['/api/', '/api'],
    ['//api//', '/api'],
    ['/a/b/', '/a/b'],
  ])('%j → %j', (basePath, normalized) => {
    expect(normalizeBasePath(basePath)).toBe(normalized);
  });
});

describe('matchRoute', () => {
  test('the pass route keeps its segments encoded', () => {
    expect(matchRoute('/v1/passes/pass.x/a%2Fb/passjson')).toEqual({
      kind: 'pass',
      passTypeIdentifier: 'pass.x',
      serialNumber: 'a%2Fb',
    });
  });

  test('the template route', () => {
    expect(matchRoute('/v1/templates/abc')).toEqual({ kind: 'template', id: 'abc' });
  });

  test('dot segments are values, not directions', () => {
    expect(matchRoute('/v1/passes/../../passjson')).toEqual({ kind: 'pass', passTypeIdentifier: '..', serialNumber: '..' });
  });

  test.each([
    '/v1/passes/passjson',
    '/v1/passes//passjson',
    '/v1/passes/a/passjson',
    '/v1/passes/a//passjson',
    '/v1/passes//b/passjson',
    '/v1/passes/a/b/c/passjson',
    '/v1/passes/a/b/passjson/',
    '/v1/passes/a/b',
    '/v1/templates/',
    '/v1/templates/1/',
    '/v1/templates/1/2',
    '/v1/templates',
    '/v1/other/1',
    '',
  ])('%j does not match', (path) => {
    expect(matchRoute(path)).toBeUndefined();
  });
});

describe('decodeSegment', () => {
  test.each([
    ['plain', 'plain'],
    ['a%20b', 'a b'],
    ['a%2Fb', 'a/b'],
    ['a%2fb', 'a/b'],
    ['%252F', '%2F'],
    ['%25', '%'],
    ['caf%C3%A9', 'café'],
    ['%F0%9F%8E%9F', '\u{1F39F}'],
    ['a+b', 'a+b'],
  ])('%j → %j', (segment, decoded) => {
    expect(decodeSegment(segment)).toBe(decoded);
  });

  test.each(['%', '%2', '%zz', '%C0%AF', '%ED%A0%80', '%FF', 'a%E2%82'])('%j is invalid', (segment) => {
    expect(decodeSegment(segment)).toBeUndefined();
  });
});

describe('parseTemplateId', () => {
  test.each([
    ['1', 1],
    ['42', 42],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('%j → %d', (text, id) => {
    expect(parseTemplateId(text)).toBe(id);
  });

  test.each([
    '',
    '0',
    '00',
    '01',
    '-1',
    '+1',
    '1.5',
    '1.0',
    '1e3',
    ' 1',
    '1 ',
    '0x1F',
    'abc',
    'Infinity',
    'NaN',
    '9007199254740992',
    '9999999999999999999',
    '١',
  ])('%j is not an id', (text) => {
    expect(parseTemplateId(text)).toBeUndefined();
  });
});
