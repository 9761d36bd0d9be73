import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, getJson } from '../lib/api.js';
import { ErrorNote, TableScroll } from './Notes.js';

/** A job as `GET /v1/jobs/{id}` gives it. */
export interface Job {
  readonly id: string;
  readonly kind: string;
  readonly state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  readonly rows: number | null;
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
  readonly error: string | null;
}

interface Result {
  readonly row: number;
  readonly status: string;
  readonly serialNumber: string | null;
  readonly problem?: { code?: string; detail?: string; issues?: { message: string; path?: string }[] };
}

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);
/** Failed rows shown on the page; the download has them all. */
const SHOWN_FAILURES = 50;

async function failedRows(jobId: string): Promise<Result[]> {
  const text = await (await call(`/v1/jobs/${encodeURIComponent(jobId)}/results`, { accept: 'application/x-ndjson' })).text();
  const failed: Result[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const result = JSON.parse(line) as Result;
    if (result.status === 'failed') failed.push(result);
    if (failed.length >= SHOWN_FAILURES) break;
  }
  return failed;
}

/** A job followed to its end: a progress bar, its counts, the failed rows with their problems, the results to download. */
export function JobProgress({ jobId, label }: { jobId: string; label: string }): JSX.Element {
  const [job, setJob] = useState<Job | undefined>(undefined);
  const [failures, setFailures] = useState<Result[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    let stopped = false;
    let timer = 0;
    const poll = (): void => {
      getJson<Job>(`/v1/jobs/${encodeURIComponent(jobId)}`).then(
        (next) => {
          if (stopped) return;
          setJob(next);
          if (ENDED.has(next.state)) {
            if (next.failed > 0) void failedRows(jobId).then((rows) => !stopped && setFailures(rows), setError);
          } else timer = window.setTimeout(poll, 600);
        },
        (failure: unknown) => !stopped && setError(failure),
      );
    };
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [jobId]);
  const done = job === undefined ? 0 : job.created + job.updated + job.unchanged + job.failed;
  const total = job?.rows ?? 0;
  return (
    <div class="job" data-testid="job" data-state={job?.state ?? 'loading'}>
      <label for={`job-${jobId}`}>
        {label}: {job === undefined ? 'starting' : job.state}
      </label>
      <progress id={`job-${jobId}`} max={Math.max(total, 1)} value={job !== undefined && ENDED.has(job.state) ? Math.max(total, 1) : done} />
      {job === undefined ? null : (
        <p class="note" role="status" data-testid="job-counts">
          {done} of {total} rows: {job.created} created, {job.updated} updated, {job.unchanged} unchanged, {job.failed} failed.
          {job.error === null ? '' : ` ${job.error}`}
        </p>
      )}
      {job !== undefined && ENDED.has(job.state) ? (
        <p>
          <a href={`/v1/jobs/${encodeURIComponent(jobId)}/results`} download={`job-${jobId}-results.ndjson`} data-testid="job-results">
            Download the results (JSON lines)
          </a>
        </p>
      ) : null}
      {failures === undefined || failures.length === 0 ? null : (
        <TableScroll label="Failed rows">
          <table data-testid="failed-rows">
            <caption>Failed rows{job !== undefined && job.failed > failures.length ? ` (first ${failures.length} of ${job.failed})` : ''}</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Serial number</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {failures.map((failure) => (
                <tr key={failure.row}>
                  <td>{failure.row}</td>
                  <td class="wrap">{failure.serialNumber ?? '—'}</td>
                  <td class="wrap">
                    {failure.problem?.detail ?? failure.problem?.code ?? 'failed'}
                    {(failure.problem?.issues ?? []).length === 0 ? null : (
                      <ul>
                        {(failure.problem?.issues ?? []).map((issue, index) => (
                          <li key={index}>
                            {issue.path === undefined ? null : <code>{issue.path}</code>} {issue.message}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
