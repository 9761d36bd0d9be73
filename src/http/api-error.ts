import { PassmintError } from '../errors.js';
import type { Problem } from './problem.js';

/**
 * What the pass client throws when the server refused a request (`status` is
 * the HTTP status, `problem` its RFC 9457 body, or one made up for a body that
 * was not a problem), or answered 2xx with something that is not the
 * expected object (`code: 'invalid-response'`, `issues` from the validator).
 *
 * @example
 * ```ts
 * try {
 *   await client.getPassJson('pass.com.example.member', serialNumber);
 * } catch (error) {
 *   if (error instanceof ApiError && error.problem.code === 'pass-not-found') return undefined;
 *   throw error;
 * }
 * ```
 */
export class ApiError extends PassmintError {
  override name = 'ApiError';
  /** The HTTP status of the response. */
  readonly status: number;
  /** The problem body; `problem.code` is the stable code to branch on. */
  readonly problem: Problem;
  /** The same as `problem.code`. */
  readonly code: Problem['code'];

  constructor(status: number, problem: Problem) {
    super(describe(status, problem), problem.issues ?? []);
    this.status = status;
    this.problem = problem;
    this.code = problem.code;
  }
}

function describe(status: number, problem: Problem): string {
  // No final period: PassmintError may append ": <first issue> at <path>".
  const detail = problem.detail.endsWith('.') ? problem.detail.slice(0, -1) : problem.detail;
  return detail === '' ? `${status} ${problem.title}` : `${status} ${problem.title}: ${detail}`;
}
