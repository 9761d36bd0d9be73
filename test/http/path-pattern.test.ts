import { describe, expect, test } from 'vitest';
import { compilePath, matchPath } from '../../src/http/path-pattern.js';

const match = (pattern: string, path: string) => matchPath(compilePath(pattern), path.split('/'));

describe('compilePath and matchPath', () => {
  test('named parameters come back still percent-encoded', () => {
    expect(match('/v1/passes/{type}/{serial}', '/v1/passes/pass.x/a%2Fb')).toEqual({ type: 'pass.x', serial: 'a%2Fb' });
  });

  test('a final {name+} takes the rest of the path, its segments joined with /', () => {
    expect(match('/v1/templates/{id}/files/{path+}', '/v1/templates/7/files/en.lproj/logo.png')).toEqual({ id: '7', path: 'en.lproj/logo.png' });
    expect(match('/v1/templates/{id}/files/{path+}', '/v1/templates/7/files/icon.png')).toEqual({ id: '7', path: 'icon.png' });
  });

  test.each([
    ['/v1/passes/{type}/{serial}', '/v1/passes//b'],
    ['/v1/passes/{type}/{serial}', '/v1/passes/a/'],
    ['/v1/passes/{type}/{serial}', '/v1/passes/a'],
    ['/v1/passes/{type}/{serial}', '/v1/passes/a/b/c'],
    ['/v1/passes/{type}/{serial}', '/v2/passes/a/b'],
    ['/v1/templates/{id}/files/{path+}', '/v1/templates/7/files'],
    ['/v1/templates/{id}/files/{path+}', '/v1/templates/7/files/'],
    ['/v1/templates/{id}/files/{path+}', '/v1/templates/7/files/a//b'],
    ['/v1/log', 'v1/log'],
  ])('%s does not match %s', (pattern, path) => {
    expect(match(pattern, path)).toBeUndefined();
  });

  test('the template is the pattern as OpenAPI writes it', () => {
    expect(compilePath('/v1/templates/{id}/files/{path+}').template).toBe('/v1/templates/{id}/files/{path}');
    expect(compilePath('/v1/templates/{id}/files/{path+}').names).toEqual(['id', 'path']);
  });

  test.each([
    ['v1/x', 'does not start with "/"'],
    ['/v1/{path+}/x', 'must be the last segment'],
    ['/v1/{id}/{id}', 'appears twice'],
    ['/v1/{}', 'is not a parameter'],
    ['/v1/a{id}', 'is not a parameter'],
  ])('%s is refused: %s', (pattern, message) => {
    expect(() => compilePath(pattern)).toThrow(message);
  });
});
