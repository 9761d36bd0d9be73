// Imports survive kill -9: a `passmint serve` process (on a PGlite data
// folder, and on PostgreSQL) is killed with SIGKILL while it imports — once
// in a file with serial numbers, once in a file without — and started again.
// The jobs go on from their last committed batch, and in the end every row
// was applied exactly once: as many passes, pass.created events and results
// as rows, no more.
import { describe, expect, test } from 'vitest';
import { crashEngines } from './crash-rig.js';
import { eventually } from './receiver.js';

const TUNING = ['--poll-ms', '20', '--lease-ms', '1500', '--timeout-ms', '1000'];
const ROWS = 4000;

const engines = crashEngines('passmint-import-crash-');

/** What the database holds once no process runs. */
interface Outcome {
  readonly passes: number;
  readonly distinctSerials: number;
  readonly withPrefix: number;
  readonly created: number;
  readonly results: { job: string; n: number; distinct: number; max: number }[];
}

const COUNT = `select
  (select count(*)::int from passmint_passes) as passes,
  (select count(distinct serial_number)::int from passmint_passes) as "distinctSerials",
  (select count(*)::int from passmint_passes where serial_number like 'K-%') as "withPrefix",
  (select count(*)::int from passmint_events where type = 'pass.created') as created`;
const RESULTS = `select j.public_id::text as job, count(r.n)::int as n, count(distinct r.n)::int as distinct, coalesce(max(r.n), 0)::int as max
  from passmint_jobs j left join passmint_job_results r on r.job_id = j.id group by j.public_id order by j.public_id`;

describe.each(engines)('on $name', (engine) => {
  test('SIGKILL mid-import, with and without serial numbers: every row applied exactly once', async () => {
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
        name: 'Seat',
        formatVersion: 1,
        passType: 'pass.com.example.seat',
        description: { eventTicket: { primaryFields: [{ key: 'seat', value: '${seat}' }] } },
        placeholder: ['seat'],
      }),
    );
    const withSerials = ['serialNumber,seat', ...Array.from({ length: ROWS }, (_, i) => `K-${i},"Row ${i}, seat ${i % 30}"`)].join('\r\n');
    const withoutSerials = Array.from({ length: ROWS }, (_, i) => JSON.stringify({ seat: `G${i}` })).join('\n');
    const jobs = [
      await call('POST', `/v1/templates/${template.id}/imports`, withSerials, 'text/csv'),
      await call('POST', `/v1/templates/${template.id}/imports`, withoutSerials, 'application/x-ndjson'),
    ];
    expect(jobs.map((job) => [job.state, job.rows])).toEqual([
      ['queued', ROWS],
      ['queued', ROWS],
    ]);

    // Killed mid-job: once while each job has made some of its passes and not all.
    for (const job of jobs) {
      await eventually(
        async () => {
          const now = await call('GET', `/v1/jobs/${job.id}`);
          const done = now.created + now.failed;
          return done > 0 && done < ROWS;
        },
        60_000,
        `job ${job.id} under way`,
      );
      service.child.kill('SIGKILL');
      await service.exited;
      service = await start();
    }
    for (const job of jobs) {
      await eventually(async () => (await call('GET', `/v1/jobs/${job.id}`)).state === 'succeeded', 120_000, `job ${job.id} to succeed`);
      expect(await call('GET', `/v1/jobs/${job.id}`)).toMatchObject({ state: 'succeeded', rows: ROWS, created: ROWS, failed: 0 });
    }
    await engine.stop(service);

    const outcome = await engine.read<Outcome>(async (query) => {
      const [counts] = await query<Omit<Outcome, 'results'>>(COUNT);
      return { ...counts!, results: await query<Outcome['results'][number]>(RESULTS) };
    });
    expect(outcome).toEqual({
      passes: 2 * ROWS,
      distinctSerials: 2 * ROWS,
      withPrefix: ROWS,
      created: 2 * ROWS,
      results: jobs.map((job) => ({ job: job.id, n: ROWS, distinct: ROWS, max: ROWS })).sort((a, b) => a.job.localeCompare(b.job)),
    });
  }, 300_000);
});
