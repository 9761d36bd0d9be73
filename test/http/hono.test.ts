import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import { bearerAuth } from '../../src/http/bearer-auth.js';
import { createPassHandler } from '../../src/http/handler.js';
import { apiKey, makePass, makeTemplate } from './fixtures.js';

// The README's Hono example, run as it is written there.
const passes = createPassHandler({
  authenticate: bearerAuth([apiKey]),
  findPass: (passTypeIdentifier, serialNumber) => makePass(passTypeIdentifier, serialNumber),
  findTemplate: (id) => makeTemplate(id),
  basePath: '/api',
});

const app = new Hono();
app.get('/health', (c) => c.text('ok'));
app.all('/api/*', (c) => passes(c.req.raw));

describe('inside a Hono app', () => {
  test('the routes answer under the base path', async () => {
    const response = await app.request('/api/v1/passes/pass.com.example.member/a%2Fb/passjson', {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(makePass('pass.com.example.member', 'a/b'));
  });

  test('problems come through unchanged', async () => {
    const response = await app.request('/api/v1/templates/1e3', { headers: { authorization: `Bearer ${apiKey}` } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid-template-id' });
    expect((await app.request('/api/v1/templates/1', { method: 'DELETE' })).headers.get('allow')).toBe('GET, HEAD');
  });

  test('the rest of the app is untouched', async () => {
    expect(await (await app.request('/health')).text()).toBe('ok');
  });
});
