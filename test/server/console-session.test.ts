// The console's sign-in and what its session may do: an API key exchanged for an HttpOnly cookie, the cookie
// authenticating /v1/ as the key, CSRF tokens and origins on changes, idle expiry on an injected clock,
// revocation, and the console's files with their security headers (real HTTP, both engines).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createConsoleHandler } from '../../src/server/console/handler.js';
import { createConsoleSessions } from '../../src/server/console/sessions.js';
import { createApiKeyChecker } from '../../src/server/db/keys.js';
import { resolveLimits } from '../../src/server/http/limits.js';
import { createPublicGuard } from '../../src/server/http/public-guard.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const HOUR = 3_600_000;

/** The console's security headers on an answer. */
function expectConsoleHeaders(headers: Headers): void {
  expect(headers.get('content-security-policy')).toBe(CSP);
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('same-origin');
}

for (const engine of ENGINES) {
  describe(`console sessions on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let dir: string;
    let clock = Date.parse('2026-03-01T09:00:00Z');

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'passmint-console-'));
      await mkdir(join(dir, 'assets'));
      await writeFile(join(dir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="./assets/index-Ab12Cd34.js"></script>');
      await writeFile(join(dir, 'assets', 'index-Ab12Cd34.js'), 'console.log("console")');
      await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
      database = await engine.open();
      service = await startService(database, { consoleDir: dir, now: () => clock });
    });

    afterAll(async () => {
      await service?.close();
      await database?.dispose();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    const signIn = async (key: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${service.url}/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ key }),
      });
      const text = await response.text();
      const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
      return { response, text, cookie, body: text === '' ? undefined : JSON.parse(text) };
    };
    const withCookie = (cookie: string, path: string, init: RequestInit = {}) =>
      fetch(`${service.url}${path}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string> | undefined) } });
    const newKey = async (scopes: string[]): Promise<{ key: string; id: string }> => {
      const made = await service.call('POST', '/v1/keys', { name: `console ${scopes.join('+')}`, scopes });
      expect(made.status).toBe(201);
      return { key: made.body.key, id: made.body.id };
    };
    const templateBody = (name: string) => ({
      name,
      formatVersion: 1,
      passType: 'pass.com.example.console',
      description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
      placeholder: ['n'],
    });

    test('sign-in: 201 with the CSRF token and the key (never the key itself), an HttpOnly SameSite=Strict cookie; GET reads it; DELETE ends it', async () => {
      const { key, id } = await newKey(['admin']);
      const made = await signIn(key);
      expect(made.response.status).toBe(201);
      expect(made.body).toEqual({
        csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        key: { id, name: 'console admin', scopes: ['admin'], templateIds: null },
      });
      const setCookie = made.response.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/^passmint_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
      expect(made.response.headers.get('cache-control')).toBe('no-store');
      expectConsoleHeaders(made.response.headers);
      // The key is in no answer and no cookie.
      expect(made.text).not.toContain(key);
      expect(setCookie).not.toContain(key.slice(3));

      const read = await withCookie(made.cookie, '/console/session');
      const readText = await read.text();
      expect(read.status).toBe(200);
      expect(JSON.parse(readText)).toEqual(made.body);
      expect(readText).not.toContain(key);

      // The cookie reads the API as the key.
      expect((await withCookie(made.cookie, '/v1/templates')).status).toBe(200);

      // Sign-out needs the CSRF token like any change.
      const refused = await withCookie(made.cookie, '/console/session', { method: 'DELETE' });
      expect([refused.status, (await refused.json()).code]).toEqual([403, 'csrf-token-invalid']);
      const out = await withCookie(made.cookie, '/console/session', { method: 'DELETE', headers: { 'x-csrf-token': made.body.csrfToken } });
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toBe('passmint_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0');
      expect((await withCookie(made.cookie, '/console/session')).status).toBe(401);
      const after = await withCookie(made.cookie, '/v1/templates');
      expect([after.status, (await after.json()).code]).toEqual([401, 'invalid-credentials']);
    });

    test('a wrong key is 401 invalid-credentials, no cookie; a body without a key is 400', async () => {
      const wrong = await signIn(`pm_${'x'.repeat(43)}`);
      expect([wrong.response.status, wrong.body.code]).toEqual([401, 'invalid-credentials']);
      expect(wrong.response.headers.get('set-cookie')).toBeNull();
      expectConsoleHeaders(wrong.response.headers);
      const empty = await fetch(`${service.url}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect([empty.status, (await empty.json()).code]).toEqual([400, 'invalid-body']);
      // A sign-in posted by another origin's page is refused.
      const foreign = await signIn(service.key, { origin: 'http://evil.example' });
      expect([foreign.response.status, foreign.body.code]).toEqual([403, 'csrf-token-invalid']);
    });

    test('a change by cookie needs the session’s CSRF token and the service’s own origin (not another port); refused ones change nothing', async () => {
      const { key } = await newKey(['admin']);
      const { cookie, body } = await signIn(key);
      const before = (await service.call('GET', '/v1/templates')).body.items.length;
      const post = (headers: Record<string, string>) =>
        withCookie(cookie, '/v1/templates', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(templateBody('csrf')),
        });
      const port = Number(new URL(service.url).port);
      const refusals = [
        {},
        { 'x-csrf-token': 'A'.repeat(43) },
        { 'x-csrf-token': body.csrfToken, origin: 'http://evil.example' },
        { 'x-csrf-token': body.csrfToken, origin: `http://127.0.0.1:${port === 65535 ? port - 1 : port + 1}` },
        { 'x-csrf-token': body.csrfToken, origin: `http://localhost:${port}` },
      ];
      for (const headers of refusals) {
        const refused = await post(headers);
        expect([refused.status, (await refused.json()).code]).toEqual([403, 'csrf-token-invalid']);
      }
      // A form post from another site (no custom header possible, text/plain body): refused as well.
      const form = await withCookie(cookie, '/v1/templates', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
        body: JSON.stringify(templateBody('form')),
      });
      expect(form.status).toBe(403);
      expect((await service.call('GET', '/v1/templates')).body.items.length).toBe(before);

      const made = await post({ 'x-csrf-token': body.csrfToken, origin: service.url });
      expect(made.status).toBe(201);
      const alsoWithoutOrigin = await post({ 'x-csrf-token': body.csrfToken });
      expect(alsoWithoutOrigin.status).toBe(201);
      expect((await service.call('GET', '/v1/templates')).body.items.length).toBe(before + 2);
    });

    test('the session has its key’s scopes: a read key’s cookie reads, and is refused a change (403 insufficient-scope)', async () => {
      const { key } = await newKey(['read']);
      const { cookie, body } = await signIn(key);
      expect(body.key.scopes).toEqual(['read']);
      expect((await withCookie(cookie, '/v1/templates')).status).toBe(200);
      const change = await withCookie(cookie, '/v1/templates', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': body.csrfToken },
        body: JSON.stringify(templateBody('read')),
      });
      expect([change.status, (await change.json()).code]).toEqual([403, 'insufficient-scope']);
      // A key limited to templates: its session says which (as GET /v1/keys does), and is limited the same way.
      const template = await service.call('POST', '/v1/templates', templateBody('limited'));
      const limited = await service.call('POST', '/v1/keys', { name: 'limited', scopes: ['read'], templateIds: [template.body.id] });
      const session = await signIn(limited.body.key);
      expect(session.body.key).toEqual({ id: limited.body.id, name: 'limited', scopes: ['read'], templateIds: [template.body.id] });
      const listed = await withCookie(session.cookie, '/v1/templates');
      expect((await listed.json()).items.map((item: { id: number }) => item.id)).toEqual([template.body.id]);
    });

    test('revoking the key ends its sessions at once', async () => {
      const { key, id } = await newKey(['passes']);
      const { cookie } = await signIn(key);
      expect((await withCookie(cookie, '/v1/templates')).status).toBe(200);
      expect((await service.call('DELETE', `/v1/keys/${id}`)).status).toBe(204);
      expect((await withCookie(cookie, '/v1/templates')).status).toBe(401);
      expect((await withCookie(cookie, '/console/session')).status).toBe(401);
      const rows = await database.db.query('select 1 from passmint_console_sessions s join passmint_api_keys k on k.key_hash = s.key_hash where k.id = $1', [
        id,
      ]);
      expect(rows).toEqual([]);
    });

    test('a session ends after 12 idle hours; each use moves the end (the clock is the service’s, moved by the test)', async () => {
      const { key } = await newKey(['read']);
      const { cookie } = await signIn(key);
      clock += 11 * HOUR;
      expect((await withCookie(cookie, '/v1/templates')).status).toBe(200);
      clock += 11 * HOUR; // 22 hours after sign-in, 11 after the last use
      expect((await withCookie(cookie, '/console/session')).status).toBe(200);
      clock += 12 * HOUR + 1000;
      expect((await withCookie(cookie, '/v1/templates')).status).toBe(401);
      expect((await withCookie(cookie, '/console/session')).status).toBe(401);
    });

    test('a key holds its 50 latest sessions: the 51st sign-in ends the one used longest ago', async () => {
      const { key } = await newKey(['read']);
      const first = await signIn(key);
      clock += 60_000;
      const cookies: string[] = [];
      for (let n = 0; n < 50; n++) cookies.push((await signIn(key)).cookie);
      expect((await withCookie(first.cookie, '/console/session')).status).toBe(401);
      expect((await withCookie(cookies[0]!, '/console/session')).status).toBe(200);
      expect((await withCookie(cookies[49]!, '/console/session')).status).toBe(200);
    });

    test('the console: its page at /console and every page path, its hashed files cached for good, security headers on all', async () => {
      for (const path of ['/console', '/console/', '/console/passes', '/console/passes/pass.com.example/M-1']) {
        const page = await fetch(`${service.url}${path}`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(page.headers.get('cache-control')).toBe('no-cache');
        expect(await page.text()).toContain('<title>console</title>');
        expectConsoleHeaders(page.headers);
      }
      const script = await fetch(`${service.url}/console/assets/index-Ab12Cd34.js`);
      expect([script.status, script.headers.get('content-type'), script.headers.get('cache-control')]).toEqual([
        200,
        'text/javascript; charset=utf-8',
        'public, max-age=31536000, immutable',
      ]);
      expect(await script.text()).toBe('console.log("console")');
      expectConsoleHeaders(script.headers);
      const icon = await fetch(`${service.url}/console/favicon.svg`);
      expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
      for (const path of ['/console/assets/missing.js', '/console/assets/../index.html.bak', '/console/passes/x.y']) {
        const missing = await fetch(`${service.url}${path}`);
        expect([missing.status, (await missing.json()).code]).toEqual([404, 'file-not-found']);
        expectConsoleHeaders(missing.headers);
      }
      const post = await fetch(`${service.url}/console/passes`, { method: 'POST' });
      expect(post.status).toBe(405);
      // Counted by route, never by path (pages are as many as the paths anyone sends).
      const metrics = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${service.key}` } })).text();
      expect(metrics).toContain('route="/console/{page}"');
      expect(metrics).toContain('route="/console/assets/{path}"');
      expect(metrics).not.toContain('pass.com.example/M-1');
    });

    test('unbuilt: /console answers 404 console-not-built; on https the cookie is Secure', async () => {
      const keys = createApiKeyChecker(database.db);
      const sessions = createConsoleSessions({ db: database.db, keys, publicUrl: 'https://passes.example.com' });
      const handler = createConsoleHandler({ sessions, dir: join(dir, 'not-built'), guard: createPublicGuard(resolveLimits()) });
      const page = await handler(new Request('http://127.0.0.1/console'));
      expect([page.status, (await page.json()).code]).toEqual([404, 'console-not-built']);
      expectConsoleHeaders(page.headers);
      const made = await handler(
        new Request('http://127.0.0.1/console/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'https://passes.example.com' },
          body: JSON.stringify({ key: service.key }),
        }),
      );
      expect(made.status).toBe(201);
      expect(made.headers.get('set-cookie')).toMatch(/^passmint_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Secure$/);
    });
  });
}
