import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { LogEntry } from '../../src/server/http/log.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

const TEMPLATE = {
  name: 'Card',
  formatVersion: 1,
  passType: 'pass.com.example.card',
  description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
  placeholder: ['n'],
};

describe.each(ENGINES)('health, readiness, metrics, logs ($name)', (engine) => {
  let database: TestDatabase;
  let service: Service;
  let receiver: Receiver;
  let down = false;
  const log: LogEntry[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    database = await engine.open();
    // The same database, with a switch that makes every plain query fail as if it were away.
    const flaky: SqlDatabase = new Proxy(database.db, {
      get(target, name, receiver) {
        if (name === 'query')
          return (text: string, params?: readonly unknown[]) =>
            down ? Promise.reject(new Error('Connection terminated unexpectedly')) : target.query(text, params);
        const value = Reflect.get(target, name, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    receiver = await startReceiver();
    service = await startService(
      { ...database, db: flaky },
      // The workers poll while the database is "away": that failure is expected; any other fails the test.
      { log: (entry) => log.push(entry), metricsToken: 'metrics-secret-1', onError: (error) => errors.push(String(error)) },
    );
  });

  afterAll(async () => {
    await service?.close();
    expect(errors.filter((error) => !error.includes('Connection terminated unexpectedly'))).toEqual([]);
    await receiver?.close();
    await database?.dispose();
  });

  test('GET /healthz answers 200 without a key', async () => {
    const response = await fetch(`${service.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('GET /readyz: 200 with the schema version; 503 not-ready with Retry-After when the schema is behind or the database is away', async () => {
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = await ready.json();
    expect(body.status).toBe('ready');
    expect(body.schemaVersion).toBeGreaterThanOrEqual(2);
    await database.db.query('delete from passmint_migrations where version = $1', [body.schemaVersion]);
    const behind = await fetch(`${service.url}/readyz`);
    expect(behind.status).toBe(503);
    expect((await behind.json()).detail).toContain(`at version ${body.schemaVersion - 1}`);
    await database.db.query('insert into passmint_migrations (version) values ($1)', [body.schemaVersion]);
    down = true;
    try {
      const away = await fetch(`${service.url}/readyz`);
      expect(away.status).toBe(503);
      expect(away.headers.get('retry-after')).toBe('5');
      expect((await away.json()).code).toBe('not-ready');
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    } finally {
      down = false;
    }
  });

  test("every answer carries X-Request-Id: the client's when it is safe, else a new one", async () => {
    const given = await fetch(`${service.url}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const unsafe = await fetch(`${service.url}/healthz`, { headers: { 'x-request-id': 'a b"c' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('one log entry per request with the route template, never the path, its token or the API key', async () => {
    log.length = 0;
    await service.call('GET', '/v1/passes/pass.com.example.card/SERIAL-SECRET/pkpass?token=tok-secret-value');
    await fetch(`${service.url}/wallet/v1/devices/DEVICE-1/registrations/pass.com.example.card`);
    await fetch(`${service.url}/no/such/thing`);
    const requests = log.filter((entry) => entry.type === 'request');
    expect(requests.map(({ method, route, status }) => ({ method, route, status }))).toEqual([
      { method: 'GET', route: '/v1/passes/{type}/{serial}/pkpass', status: 404 },
      { method: 'GET', route: '/wallet/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}', status: 204 },
      { method: 'GET', route: 'unmatched', status: 404 },
    ]);
    for (const entry of requests) {
      expect(Object.keys(entry).sort()).toEqual(['method', 'ms', 'requestId', 'route', 'status', 'time', 'type']);
      expect(typeof entry['ms']).toBe('number');
    }
    const text = JSON.stringify(log);
    for (const secret of ['SERIAL-SECRET', 'tok-secret-value', 'DEVICE-1', service.key]) expect(text).not.toContain(secret);
  });

  test('GET /metrics: 401 without a key; Prometheus text with an API key or the metrics token', async () => {
    expect((await fetch(`${service.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${service.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    await service.call('GET', '/v1/passes/pass.com.example.card/none');
    const response = await fetch(`${service.url}/metrics`, { headers: { authorization: 'Bearer metrics-secret-1' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toMatch(/^passmint_http_requests_total\{method="GET",route="\/v1\/passes\/\{type\}\/\{serial\}",status="404"\} [1-9]\d*$/m);
    expect(text).toMatch(/^passmint_http_request_duration_seconds_bucket\{method="GET",route="\/v1\/passes\/\{type\}\/\{serial\}",le="\+Inf"\} [1-9]\d*$/m);
    expect(text).toContain('# TYPE passmint_http_request_duration_seconds histogram');
    expect(text).toMatch(/^passmint_webhook_queue_pending \d+$/m);
    expect(text).toMatch(/^passmint_webhook_queue_oldest_due_seconds [\d.]+$/m);
    expect(text).toMatch(/^passmint_webhook_deliveries\{status="delivered"\} \d+$/m);
    expect(text).toMatch(/^passmint_apns_pushes\{status="pending"\} \d+$/m);
    expect(text).toMatch(/^passmint_database_up 1$/m);
    if (engine.name === 'postgres') expect(text).toMatch(/^passmint_db_pool_connections\{state="idle"\} \d+$/m);
    const byKey = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${service.key}` } });
    expect(byKey.status).toBe(200);
    down = true;
    try {
      const away = await (await fetch(`${service.url}/metrics`, { headers: { authorization: 'Bearer metrics-secret-1' } })).text();
      expect(away).toMatch(/^passmint_database_up 0$/m);
    } finally {
      down = false;
    }
  });

  test('each delivery attempt is one log entry and counted by outcome', async () => {
    const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/ops`, secret: 'a-secret-of-16-chars-or-more' });
    expect(hook.status).toBe(201);
    const template = await service.call('POST', '/v1/templates', TEMPLATE);
    expect((await service.call('POST', `/v1/templates/${template.body.id}/passes`, { values: { n: '1' } })).status).toBe(201);
    await expect.poll(() => log.filter((entry) => entry.type === 'delivery').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const [attempt] = log.filter((entry) => entry.type === 'delivery');
    expect(attempt).toMatchObject({ webhookId: hook.body.id, attempt: 1, outcome: 'received', status: 200 });
    expect(JSON.stringify(attempt)).not.toContain('a-secret-of-16-chars-or-more');
    const text = await (await fetch(`${service.url}/metrics`, { headers: { authorization: 'Bearer metrics-secret-1' } })).text();
    expect(text).toMatch(/^passmint_webhook_attempts_total\{outcome="received"\} [1-9]\d*$/m);
  });
});
