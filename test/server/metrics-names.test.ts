// GET /metrics names what an operator watches: requests by route and status,
// latencies, the webhook queue's depth and the age of its oldest due
// delivery, webhook deliveries and APNs pushes by outcome, the database pool.
// Every metric the service writes is in the table of docs/operations.md, and
// every metric of that table is in the output.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApnsClient, type ApnsClient } from '../../src/apns/client.js';
import type { LogEntry } from '../../src/server/http/log.js';
import { apnsPki, PASS_TYPE_IDENTIFIER } from '../apns/pki.js';
import { startApnsStandIn, type StandIn } from '../apns/stand-in.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const postgres = ENGINES.find((engine) => engine.name === 'postgres')!;
const goneToken = 'dd'.repeat(32);
const goodToken = 'cc'.repeat(32);

/** The metric names of the table in docs/operations.md. */
function documentedMetrics(): string[] {
  const text = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  return [...text.matchAll(/^\| `(passmint_[a-z_]+)` \|/gm)].map((match) => match[1]!);
}

describe('the metrics an operator watches', () => {
  let database: TestDatabase;
  let service: Service;
  let receiver: Receiver;
  let standIn: StandIn;
  let apns: ApnsClient;
  const log: LogEntry[] = [];

  beforeAll(async () => {
    const pki = apnsPki();
    standIn = await startApnsStandIn(pki, { answer: (push) => (push.pushToken === goneToken ? { status: 410, reason: 'Unregistered' } : { status: 200 }) });
    apns = createApnsClient({ certificate: { cert: pki.passCertPem, key: pki.passKeyPem }, origin: standIn.origin, ca: pki.caPem });
    [database, receiver] = await Promise.all([postgres.open(), startReceiver()]);
    service = await startService(database, { apns, issuer: { teamIdentifier: 'A93A5CM278', organizationName: 'Example' }, log: (entry) => log.push(entry) });
  });

  afterAll(async () => {
    await service?.close();
    await apns?.close();
    await standIn?.close();
    await receiver?.close();
    await database?.dispose();
  });

  test('requests, latencies, the queue, deliveries and pushes by outcome, and the pool are in GET /metrics, each as documented', async () => {
    const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/metrics` });
    receiver.secrets.set('/metrics', [hook.body.secret]);
    const { body: template } = await service.call('POST', '/v1/templates', {
      name: 'Card',
      formatVersion: 1,
      passType: PASS_TYPE_IDENTIFIER,
      description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
      placeholder: ['n'],
    });
    expect((await service.call('POST', `/v1/templates/${template.id}/passes`, { values: { n: 'one' }, serialNumber: 'M-1' })).status).toBe(201);
    const pass = (await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1/passjson`)).body;
    for (const [device, pushToken] of [
      ['device-good', goodToken],
      ['device-gone', goneToken],
    ] as const) {
      const registered = await fetch(`${pass.webServiceURL}/v1/devices/${device}/registrations/${PASS_TYPE_IDENTIFIER}/M-1`, {
        method: 'POST',
        headers: { authorization: `ApplePass ${pass.authenticationToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pushToken }),
      });
      expect(registered.status).toBe(201);
    }
    expect((await service.call('PUT', `/v1/passes/${PASS_TYPE_IDENTIFIER}/M-1/values`, { n: 'two' })).status).toBe(200);
    expect((await service.call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/none`)).status).toBe(404);
    await eventually(() => log.filter((entry) => entry.type === 'push').length >= 2, 15_000, 'both pushes');
    await eventually(() => log.filter((entry) => entry.type === 'delivery').length >= 1, 15_000, 'a delivery attempt');

    // The database's counts follow each attempt once it is recorded (just after it is logged).
    const scrape = async (): Promise<string> => (await service.call('GET', '/metrics')).body as string;
    await eventually(async () => /^passmint_apns_pushes\{status="gone"\} 1$/m.test(await scrape()), 15_000, 'the pushes recorded');
    const text = await scrape();
    // Requests by route (its template, never the path) and status; their latencies.
    expect(text).toMatch(/^passmint_http_requests_total\{method="PUT",route="\/v1\/passes\/\{type\}\/\{serial\}\/values",status="200"\} 1$/m);
    expect(text).toMatch(/^passmint_http_requests_total\{method="GET",route="\/v1\/passes\/\{type\}\/\{serial\}",status="404"\} 1$/m);
    expect(text).toMatch(/^passmint_http_request_duration_seconds_count\{method="PUT",route="\/v1\/passes\/\{type\}\/\{serial\}\/values"\} 1$/m);
    expect(text).not.toContain('M-1');
    // The queue: its depth, what is due, the age of the oldest due delivery.
    expect(text).toMatch(/^passmint_webhook_queue_pending \d+$/m);
    expect(text).toMatch(/^passmint_webhook_queue_due \d+$/m);
    expect(text).toMatch(/^passmint_webhook_queue_oldest_due_seconds \d+(\.\d+)?(e-?\d+)?$/m);
    // Deliveries and pushes by outcome (this process's attempts) and by status (the database's).
    expect(text).toMatch(/^passmint_webhook_attempts_total\{outcome="received"\} [1-9]\d*$/m);
    expect(text).toMatch(/^passmint_apns_push_attempts_total\{outcome="sent"\} 1$/m);
    expect(text).toMatch(/^passmint_apns_push_attempts_total\{outcome="gone"\} 1$/m);
    expect(text).toMatch(/^passmint_webhook_deliveries\{status="delivered"\} [1-9]\d*$/m);
    expect(text).toMatch(/^passmint_apns_pushes\{status="sent"\} 1$/m);
    expect(text).toMatch(/^passmint_apns_pushes\{status="gone"\} 1$/m);
    // The database pool.
    for (const state of ['total', 'idle', 'waiting']) expect(text).toMatch(new RegExp(`^passmint_db_pool_connections\\{state="${state}"\\} \\d+$`, 'm'));

    // Every metric written is documented, and every documented one is written.
    const written = [...text.matchAll(/^# TYPE (passmint_[a-z_]+) /gm)].map((match: RegExpMatchArray) => match[1]!).sort();
    expect(written).toEqual([...new Set(documentedMetrics())].sort());

    // Each push is one log line by outcome, without the device's push token.
    const pushes = log.filter((entry) => entry.type === 'push');
    expect(pushes.map((entry) => entry['outcome']).sort()).toEqual(['gone', 'sent']);
    expect(JSON.stringify(pushes)).not.toMatch(new RegExp(`${goodToken}|${goneToken}`));
  });
});
