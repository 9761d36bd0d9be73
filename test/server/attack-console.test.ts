// Attacks on the console's session: the answer of GET /console/session holds the CSRF token, so a page
// of another origin that the browser sends the cookie for (same site: another port, a sibling host)
// must not be answered it; the console's own page (no Origin on a same-origin GET, or its own) is.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

// The session lives in the database: both engines, one service each.
describe.each(ENGINES)('attacks on console sessions ($name)', (engine) => {
  let database: TestDatabase;
  let service: Service;
  let cookie: string;

  beforeAll(async () => {
    database = await engine.open();
    service = await startService(database);
    const made = await fetch(`${service.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: service.key }),
    });
    expect(made.status).toBe(201);
    cookie = (made.headers.get('set-cookie') ?? '').split(';')[0]!;
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test.each(['http://evil.example', 'null', 'http://127.0.0.1:1'])('GET /console/session from Origin %s is a 403 without the CSRF token', async (origin) => {
    const answer = await fetch(`${service.url}/console/session`, { headers: { cookie, origin } });
    const text = await answer.text();
    expect(answer.status).toBe(403);
    expect(JSON.parse(text).code).toBe('csrf-token-invalid');
    expect(text).not.toContain('csrfToken');
  });

  test('GET /console/session without an Origin, or with its own, gives the token', async () => {
    for (const headers of [{ cookie }, { cookie, origin: service.url }]) {
      const answer = await fetch(`${service.url}/console/session`, { headers });
      expect(answer.status).toBe(200);
      expect((await answer.json()).csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  test.each(['pm_a\u0000b', 'pm_a\nb', 'pm_a b', 'pm_\u00e9'])('a sign-in with a key no header can carry (%j) is a 400, not a 500', async (key) => {
    const answer = await fetch(`${service.url}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key }),
    });
    expect(answer.status).toBe(400);
    expect((await answer.json()).code).toBe('invalid-body');
    expect(answer.headers.get('set-cookie')).toBeNull();
  });
});
