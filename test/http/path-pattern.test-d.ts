import { describe, expectTypeOf, test } from 'vitest';
import { compilePath, matchPath, type PathParams } from '../../src/http/path-pattern.js';

describe('PathParams', () => {
  test('reads the parameter names from the path text', () => {
    expectTypeOf<PathParams<'/v1/passes/{type}/{serial}'>>().toEqualTypeOf<{ readonly type: string; readonly serial: string }>();
    expectTypeOf<PathParams<'/v1/templates/{id}/files/{path+}'>>().toEqualTypeOf<{ readonly id: string; readonly path: string }>();
    expectTypeOf<PathParams<'/v1/templates'>>().toEqualTypeOf<Record<never, string>>();
  });

  test("matchPath gives the pattern's parameters", () => {
    const params = matchPath(compilePath('/v1/webhooks/{id}/secret'), ['', 'v1', 'webhooks', 'x', 'secret']);
    expectTypeOf(params).toEqualTypeOf<{ readonly id: string } | undefined>();
    // @ts-expect-error no such parameter in the path
    void params?.serial;
  });
});
