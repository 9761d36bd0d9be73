// A publish and a bulk void survive kill -9: a `passmint serve` process (on
// PostgreSQL, and on a PGlite data folder) is killed with SIGKILL in the
// middle of each job and started again. The jobs go on after their last
// committed batch, and in the end every pass was changed exactly once by
// each: one version and one event per pass per job, one result line each.
import { describe, expect, test } from 'vitest';
import { crashEngines } from './crash-rig.js';
import { eventually } from './receiver.js';

const TUNING = ['--poll-ms', '20', '--lease-ms', '1500', '--timeout-ms', '1000'];
const PASSES = 3000;

const engines = crashEngines('passmint-programs-crash-');

/** What the database holds once no process runs. */
interface Outcome {
  readonly versions: { version: number; state: string; n: number }[];
  readonly events: { type: string; n: number; passes: number }[];
  readonly results: { kind: string; n: number; distinct: number }[];
}

const VERSIONS = 'select version, state, count(*)::int as n from passmint_passes group by version, state order by version';
const EVENTS = `select type, count(*)::int as n, count(distinct body::json->'data'->>'serialNumber')::int as passes from passmint_events
  where type in ('pass.updated', 'pass.voided') group by type order by type`;
const RESULTS = `select j.kind, count(r.n)::int as n, count(distinct r.serial_number)::int as distinct
  from passmint_jobs j join passmint_job_results r on r.job_id = j.id where j.kind in ('publish', 'void') group by j.kind order by j.kind`;

describe.each(engines)('on $name', (engine) => {
  test('SIGKILL mid-publish and mid-void: every pass changed exactly once by each', async () => {
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
    const template = (label: string): string =>
      JSON.stringify({
        name: 'Seat',
        formatVersion: 1,
        passType: 'pass.com.example.seat',
        description: { eventTicket: { primaryFields: [{ key: 'seat', label, value: '${seat}' }] } },
        placeholder: ['seat'],
      });
    const { id } = await call('POST', '/v1/templates', template('Seat'));
    const made = await call(
      'POST',
      `/v1/templates/${id}/imports`,
      Array.from({ length: PASSES }, (_, i) => JSON.stringify({ seat: `S${i}` })).join('\n'),
      'application/x-ndjson',
    );
    await eventually(async () => (await call('GET', `/v1/jobs/${made.id}`)).state === 'succeeded', 120_000, 'the import');
    await call('PUT', `/v1/templates/${id}`, template('Place'));

    /** Runs a job, killing the process once while it is under way; resolves to the job as it ended. */
    const survive = async (path: string): Promise<any> => {
      const job = await call('POST', path);
      expect([job.state, job.rows]).toEqual(['queued', PASSES]);
      await eventually(
        async () => {
          const now = await call('GET', `/v1/jobs/${job.id}`);
          return now.changed > 0 && now.changed < PASSES;
        },
        60_000,
        `${job.kind} under way`,
      );
      service.child.kill('SIGKILL');
      await service.exited;
      service = await start();
      await eventually(async () => (await call('GET', `/v1/jobs/${job.id}`)).state === 'succeeded', 120_000, `${job.kind} to succeed`);
      return call('GET', `/v1/jobs/${job.id}`);
    };
    expect(await survive(`/v1/templates/${id}/publish`)).toMatchObject({ kind: 'publish', changed: PASSES, unchanged: 0, failed: 0 });
    expect(await survive(`/v1/templates/${id}/passes/void`)).toMatchObject({ kind: 'void', changed: PASSES, unchanged: 0, failed: 0 });
    await engine.stop(service);

    const outcome = await engine.read<Outcome>(async (query) => ({
      versions: await query<Outcome['versions'][number]>(VERSIONS),
      events: await query<Outcome['events'][number]>(EVENTS),
      results: await query<Outcome['results'][number]>(RESULTS),
    }));
    expect(outcome).toEqual({
      // Made (1), published (2), voided (3): each pass exactly once.
      versions: [{ version: 3, state: 'voided', n: PASSES }],
      events: [
        { type: 'pass.updated', n: PASSES, passes: PASSES },
        { type: 'pass.voided', n: PASSES, passes: PASSES },
      ],
      results: [
        { kind: 'publish', n: PASSES, distinct: PASSES },
        { kind: 'void', n: PASSES, distinct: PASSES },
      ],
    });
  }, 300_000);
});
