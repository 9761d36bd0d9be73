import { describe, expectTypeOf, test } from 'vitest';
import { defineRoute, type Route } from '../../src/server/routes/define.js';

describe('defineRoute', () => {
  test("the handler's parameters are read from the path", () => {
    const route = defineRoute({
      method: 'GET',
      path: '/v1/passes/{type}/{serial}',
      auth: 'read',
      summary: 'Read a pass',
      responses: {},
      handler: async ({ params }) => {
        expectTypeOf(params).toEqualTypeOf<{ readonly type: string; readonly serial: string }>();
        // @ts-expect-error no such parameter in the path
        void params.id;
        return new Response();
      },
    });
    expectTypeOf(route).toEqualTypeOf<Route>();
  });

  test('auth is a scope, public, or checked by the handler', () => {
    const declare = (auth: Parameters<typeof defineRoute>[0]['auth']) => auth;
    declare('admin');
    declare({ scope: 'read', checkedBy: 'handler', or: 'pass-token' });
    // @ts-expect-error no such scope
    declare('root');
    // @ts-expect-error Apple's token is the wallet handler's, not a route's the router serves
    declare('apple-pass');
  });
});
