// The job module (queue/jobs.ts) that imports and the kinds to come share:
// a batch commits its changes and the job's cursor together, a cancel stops
// the job after the batch in flight, a lost claim writes nothing, a job that
// fails by the service's error is tried again; the cancel of a queued import
// through the API; retention of ended jobs — on both engines.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { insertJob, queueJob, cancelJob, findJob } from '../../src/server/db/jobs.js';
import { addJobResults, jobResults } from '../../src/server/db/job-results.js';
import { createJobWorker, JobFailure, type JobRunner } from '../../src/server/queue/jobs.js';
import { createRetention } from '../../src/server/queue/retention.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService } from './harness.js';
import { eventually } from './receiver.js';

for (const engine of ENGINES) {
  describe(`jobs on ${engine.name}`, () => {
    let database: TestDatabase;
    const stops: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      database = await engine.open();
    });
    afterEach(async () => {
      for (const stop of stops.splice(0)) await stop();
    });
    afterAll(async () => {
      await database?.dispose();
    });

    const queued = async (kind: string, rows: number): Promise<{ seq: number; id: string }> => {
      const job = await insertJob(database.db, kind, null, {});
      await queueJob(database.db, job.seq, rows, {});
      return job;
    };

    /** A runner of `rows` records, one per batch, each waiting for the test to let it go on. */
    const stepper = (): { runner: JobRunner; next: () => void; free: () => void; batches: number[] } => {
      const batches: number[] = [];
      let release: (() => void) | undefined;
      let waiting = Promise.resolve();
      let free = false;
      return {
        batches,
        next: () => release?.(),
        // The test is over: no more waiting (the worker's stop waits for the job in flight).
        free: () => {
          free = true;
          release?.();
        },
        runner: {
          async run(run) {
            for (let row = run.job.done + 1; row <= run.job.total_rows; row++) {
              const going = await run.batch(async (tx, done) => {
                expect(done).toBe(row - 1);
                await addJobResults(tx, run.job.id, [{ n: row, status: 'created', serialNumber: `S-${row}`, problem: null }]);
                return { records: 1, created: 1, updated: 0, unchanged: 0, failed: 0 };
              });
              batches.push(row);
              if (!going || free) return;
              waiting = new Promise((resolve) => {
                release = resolve;
              });
              await waiting;
            }
          },
        },
      };
    };

    test('each batch commits its results and the cursor; a cancel stops the job after the batch in flight, what it did stays', async () => {
      const { seq, id } = await queued('step', 5);
      const step = stepper();
      const worker = createJobWorker(database.db, {
        runners: { step: step.runner },
        pollMs: 10,
        leaseMs: 5000,
        onWritten: () => undefined,
        onError: (error) => {
          throw error;
        },
      });
      worker.start();
      stops.push(async () => {
        step.free();
        await worker.stop();
      });
      for (let batch = 1; batch <= 3; batch++) {
        await eventually(() => step.batches.length === batch, 10_000, `batch ${batch}`);
        if (batch < 3) step.next();
      }
      // Between batches 3 and 4: cancelled; the runner's next batch writes nothing and it stops.
      const cancelled = await database.db.transaction((tx) => cancelJob(tx, id));
      expect(cancelled).toMatchObject({ state: 'cancelled', done: 3, created: 3 });
      step.next();
      await eventually(() => step.batches.length === 4, 10_000, 'the refused batch');
      const job = await findJob(database.db, id);
      expect(job).toMatchObject({ state: 'cancelled', done: 3, created: 3, rows: 5 });
      expect((await jobResults(database.db, seq, 0, 100)).map((result) => result.n)).toEqual([1, 2, 3]);
      // Cancelling again: it has ended.
      expect(await database.db.transaction((tx) => cancelJob(tx, id))).toBeUndefined();
    });

    test('a job whose claim was taken by another process writes nothing more; the other goes on from the cursor, each record once', async () => {
      const { seq, id } = await queued('step', 4);
      const first = stepper();
      const a = createJobWorker(database.db, {
        runners: { step: first.runner },
        pollMs: 10,
        leaseMs: 5000,
        onWritten: () => undefined,
        onError: () => undefined,
      });
      a.start();
      stops.push(async () => {
        first.free();
        await a.stop();
      });
      await eventually(() => first.batches.length === 1, 10_000, 'the first batch');
      // The lease runs out (a process that stalled): another worker claims the job and runs it to the end.
      await database.db.query("update passmint_jobs set lease = gen_random_uuid(), locked_until = now() - interval '1 second' where public_id = $1", [id]);
      const second = stepper();
      const b = createJobWorker(database.db, {
        runners: { step: second.runner },
        pollMs: 10,
        leaseMs: 5000,
        onWritten: () => undefined,
        onError: () => undefined,
      });
      b.start();
      stops.push(async () => {
        second.free();
        await b.stop();
      });
      for (let row = 2; row <= 4; row++) {
        await eventually(() => second.batches.length === row - 1, 10_000, `batch ${row}`);
        second.next();
      }
      await eventually(async () => (await findJob(database.db, id))?.state === 'succeeded', 10_000, 'the job to succeed');
      // The stalled worker wakes: its batch is refused.
      first.next();
      await eventually(() => first.batches.length === 2, 10_000, 'the stalled batch');
      expect(await findJob(database.db, id)).toMatchObject({ state: 'succeeded', done: 4, created: 4 });
      expect((await jobResults(database.db, seq, 0, 100)).map((result) => result.n)).toEqual([1, 2, 3, 4]);
    });

    test('a JobFailure fails the job with its message; an unexpected error is tried again, three tries in all', async () => {
      const failing = await queued('fails', 1);
      const broken = await queued('broken', 1);
      let tries = 0;
      const errors: unknown[] = [];
      const worker = createJobWorker(database.db, {
        runners: {
          fails: { run: async () => Promise.reject(new JobFailure('The template was deleted.')) },
          broken: {
            run: async () => {
              tries++;
              throw new Error('bug');
            },
          },
        },
        pollMs: 10,
        leaseMs: 5000,
        retryMs: 10,
        onWritten: () => undefined,
        onError: (error) => errors.push(error),
      });
      worker.start();
      stops.push(() => worker.stop());
      await eventually(async () => (await findJob(database.db, failing.id))?.state === 'failed', 10_000, 'the failed job');
      expect(await findJob(database.db, failing.id)).toMatchObject({ state: 'failed', error: 'The template was deleted.' });
      await eventually(async () => (await findJob(database.db, broken.id))?.state === 'failed', 10_000, 'the broken job to fail');
      expect(tries).toBe(3);
      expect(errors).toHaveLength(3);
      const events = await database.db.query<{ body: string }>("select body from passmint_events where type = 'job.completed'");
      const data = events.map((event) => JSON.parse(event.body).data);
      expect(data).toContainEqual(expect.objectContaining({ jobId: failing.id, state: 'failed' }));
      expect(data).toContainEqual(expect.objectContaining({ jobId: broken.id, state: 'failed' }));
    });

    test('retention deletes jobs that ended more than jobDays ago, their results first; running and recent ones stay', async () => {
      const old = await queued('step', 2);
      const recent = await queued('step', 1);
      await database.db.transaction(async (tx) => {
        await addJobResults(tx, old.seq, [
          { n: 1, status: 'created', serialNumber: 'A', problem: null },
          { n: 2, status: 'failed', serialNumber: null, problem: '{}' },
        ]);
        await cancelJob(tx, old.id);
        await cancelJob(tx, recent.id);
      });
      await database.db.query("update passmint_jobs set finished_at = now() - interval '8 days' where public_id = $1", [old.id]);
      const retention = createRetention(database.db, { days: 30, jobDays: 7, batchSize: 1 });
      const counts = await retention.runOnce();
      expect([counts.jobResults, counts.jobs]).toEqual([2, 1]);
      expect(await findJob(database.db, old.id)).toBeUndefined();
      expect(await findJob(database.db, recent.id)).toMatchObject({ state: 'cancelled' });
    });

    test('through the API: a queued import (no process runs imports) is cancelled with job.completed; its input is gone', async () => {
      const service = await startService(database, { limits: { importsAtOnce: 0 } });
      stops.push(() => service.close());
      const template = await service.call('POST', '/v1/templates', {
        name: 'T',
        formatVersion: 1,
        passType: 'pass.com.example.t',
        description: { generic: { primaryFields: [{ key: 'a', value: '${a}' }] } },
        placeholder: ['a'],
      });
      const job = await service.call('POST', `/v1/templates/${template.body.id}/imports`, 'a\n1\n2\n', { 'content-type': 'text/csv' });
      expect([job.status, job.body.state, job.body.rows]).toEqual([202, 'queued', 2]);
      const cancel = await service.call('POST', `/v1/jobs/${job.body.id}/cancel`);
      expect(cancel.body).toMatchObject({ state: 'cancelled', created: 0, failed: 0, rows: 2 });
      expect(cancel.body.finishedAt).not.toBeNull();
      // Cancelling a cancelled job answers it again.
      expect((await service.call('POST', `/v1/jobs/${job.body.id}/cancel`)).body.state).toBe('cancelled');
      const seq = (await database.db.query<{ id: number }>('select id from passmint_jobs where public_id = $1', [job.body.id]))[0]!.id;
      expect(await database.db.query('select n from passmint_job_inputs where job_id = $1', [seq])).toEqual([]);
      const events = await database.db.query<{ body: string }>("select body from passmint_events where type = 'job.completed'");
      expect(events.map((event) => JSON.parse(event.body).data)).toContainEqual({
        jobId: job.body.id,
        kind: 'import',
        state: 'cancelled',
        templateId: template.body.id,
        rows: 2,
        created: 0,
        updated: 0,
        unchanged: 0,
        failed: 0,
      });
    });
  });
}
