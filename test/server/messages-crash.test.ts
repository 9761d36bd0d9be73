// A message job survives kill -9: a `passmint serve` process (on PostgreSQL,
// and on a PGlite data folder) is killed with SIGKILL while it writes a
// message into 3,000 passes, and started again. The job goes on from its
// last committed batch, and in the end every pass got the message exactly
// once: one new version each, one pass.updated each, one result each.
import { describe, expect, test } from 'vitest';
import { crashEngines } from './crash-rig.js';
import { eventually } from './receiver.js';

const TUNING = ['--poll-ms', '20', '--lease-ms', '1500', '--timeout-ms', '1000'];
const PASSES = 3000;
const TEXT = 'The pool is closed on Monday.';

const engines = crashEngines('passmint-message-crash-');

interface Outcome {
  readonly passes: number;
  readonly withMessage: number;
  readonly versions: number[];
  readonly updated: number;
  readonly results: number;
  readonly distinctResults: number;
}

const COUNT = `select
  (select count(*)::int from passmint_passes) as passes,
  (select count(*)::int from passmint_passes where pass::text like '%${TEXT}%') as "withMessage",
  (select array_agg(distinct version order by version) from passmint_passes) as versions,
  (select count(*)::int from passmint_events where type = 'pass.updated') as updated,
  (select count(*)::int from passmint_job_results r join passmint_jobs j on j.id = r.job_id where j.kind = 'message') as results,
  (select count(distinct r.serial_number)::int from passmint_job_results r join passmint_jobs j on j.id = r.job_id where j.kind = 'message') as "distinctResults"`;

describe.each(engines)('on $name', (engine) => {
  test('SIGKILL mid-message: every pass gets the message exactly once', async () => {
    const start = () => engine.start(TUNING);
    let service = await start();
    const key = service.apiKey!;
    const call = async (method: string, path: string, body?: string, type = 'application/json'): Promise<any> => {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': type },
        ...(body === undefined ? {} : { body }),
      });
      return response.json();
    };
    const template = await call(
      'POST',
      '/v1/templates',
      JSON.stringify({
        name: 'Member',
        formatVersion: 1,
        passType: 'pass.com.example.member',
        description: {
          generic: {
            primaryFields: [{ key: 'name', value: '${name}' }],
            backFields: [{ key: 'news', label: 'News', value: '${news}', changeMessage: '%@' }],
          },
        },
        placeholder: ['name', 'news'],
      }),
    );
    const rows = Array.from({ length: PASSES }, (_, i) => JSON.stringify({ serialNumber: `M-${i}`, name: `Holder ${i}`, news: 'Welcome' })).join('\n');
    const made = await call('POST', `/v1/templates/${template.id}/imports`, rows, 'application/x-ndjson');
    await eventually(async () => (await call('GET', `/v1/jobs/${made.id}`)).state === 'succeeded', 120_000, 'the passes');

    const message = await call('POST', `/v1/templates/${template.id}/messages`, JSON.stringify({ header: 'Pool', body: TEXT }));
    expect(message).toMatchObject({ passes: PASSES, job: { kind: 'message', state: 'queued', rows: PASSES } });
    const job = message.job.id;
    // Killed once while the job has written some of its passes and not all.
    await eventually(
      async () => {
        const now = await call('GET', `/v1/jobs/${job}`);
        return now.updated > 0 && now.updated < PASSES;
      },
      60_000,
      'the message under way',
    );
    service.child.kill('SIGKILL');
    await service.exited;
    service = await start();
    await eventually(async () => (await call('GET', `/v1/jobs/${job}`)).state === 'succeeded', 120_000, 'the message to finish');
    expect(await call('GET', `/v1/jobs/${job}`)).toMatchObject({ state: 'succeeded', rows: PASSES, updated: PASSES, unchanged: 0, failed: 0 });
    await engine.stop(service);

    expect(await engine.read(async (query) => (await query<Outcome>(COUNT))[0])).toEqual({
      passes: PASSES,
      withMessage: PASSES,
      versions: [2],
      updated: PASSES,
      results: PASSES,
      distinctResults: PASSES,
    });
  }, 300_000);
});
