// A job's input as it was uploaded (an import's file), in chunks: written
// while the upload arrives, before the job is queued, and read back one
// chunk at a time, so neither end holds the whole file.
import type { SqlQueryable } from './sql.js';

/**
 * Stores chunk `n` (from 0) of a job's input.
 *
 * @example
 * ```ts
 * await addJobInput(db, seq, 0, bytes);
 * ```
 */
export async function addJobInput(sql: SqlQueryable, jobSeq: number, n: number, bytes: Uint8Array): Promise<void> {
  await sql.query('insert into passmint_job_inputs (job_id, n, bytes) values ($1, $2, $3)', [jobSeq, n, bytes]);
}

/**
 * A job's input, chunk after chunk, each read when the one before has been
 * used (one chunk in memory at a time).
 *
 * @example
 * ```ts
 * for await (const chunk of jobInput(db, seq)) parser.write(chunk);
 * ```
 */
export async function* jobInput(sql: SqlQueryable, jobSeq: number): AsyncGenerator<Uint8Array> {
  for (let n = 0; ; n++) {
    const rows = await sql.query<{ bytes: Uint8Array }>('select bytes from passmint_job_inputs where job_id = $1 and n = $2', [jobSeq, n]);
    if (rows[0] === undefined) return;
    yield rows[0].bytes;
  }
}
