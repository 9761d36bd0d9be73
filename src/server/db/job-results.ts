// A job's results: one line per record (an import's row), in the record's
// order, written in the transaction of the record's batch.
import type { SqlQueryable } from './sql.js';

/** What became of one record. */
export interface JobResult {
  /** The record's number in the input, from 1. */
  readonly n: number;
  readonly status: 'created' | 'updated' | 'unchanged' | 'failed';
  readonly serialNumber: string | null;
  /** The problem body (RFC 9457) as JSON text, for a failed record. */
  readonly problem: string | null;
}

/**
 * Adds a batch's results (one statement).
 *
 * @example
 * ```ts
 * await addJobResults(tx, seq, [{ n: 1, status: 'created', serialNumber: 'M-1', problem: null }]);
 * ```
 */
export async function addJobResults(tx: SqlQueryable, jobSeq: number, results: readonly JobResult[]): Promise<void> {
  if (results.length === 0) return;
  await tx.query(
    `insert into passmint_job_results (job_id, n, status, serial_number, problem)
     select $1, x.n, x.status, x.serial, x.problem from unnest($2::int[], $3::text[], $4::text[], $5::text[]) as x(n, status, serial, problem)`,
    [jobSeq, results.map((r) => r.n), results.map((r) => r.status), results.map((r) => r.serialNumber), results.map((r) => r.problem)],
  );
}

/**
 * At most `limit` results of a job after record `after`, in record order
 * (a page of the results stream).
 *
 * @example
 * ```ts
 * const page = await jobResults(db, seq, 0, 1000);
 * ```
 */
export async function jobResults(sql: SqlQueryable, jobSeq: number, after: number, limit: number): Promise<JobResult[]> {
  return sql.query<JobResult>(
    `select n, status, serial_number as "serialNumber", problem from passmint_job_results where job_id = $1 and n > $2 order by n limit $3`,
    [jobSeq, after, limit],
  );
}
