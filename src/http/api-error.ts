import { PassmintError } from '../errors.js';
import type { Problem } from './problem.js';

/**
 * What the pass client throws when the server refused a request (`status` is
 * the HTTP status, `problem` its RFC 9457 body, or one made up for a body that
 * was not a problem), answered 2xx with something that is not the expected
 * object (`code: 'invalid-response'`, `issues` from the validator), sent more
 * than `maxResponseBytes` (`response-too-large`), or did not answer at all:
 * `status` 0 with `code: 'timeout'` (the client's own `timeoutMs`) or
 * `'network-error'` (the cause in `cause`).
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

  constructor(status: number, problem: Problem, options?: ErrorOptions) {
    super(describe(status, problem), Array.isArray(problem.issues) ? problem.issues : []);
    this.status = status;
    this.problem = problem;
    this.code = problem.code;
    // PassmintError takes no options; `cause` is set as Error would set it.
    if (options !== undefined && 'cause' in options) {
      Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true, enumerable: false });
    }
  }
}

function describe(status: number, problem: Problem): string {
  // No final period: PassmintError may append ": <first issue> at <path>".
  const text = typeof problem.detail === 'string' ? problem.detail : '';
  const detail = text.endsWith('.') ? text.slice(0, -1) : text;
  return detail === '' ? `${status} ${problem.title}` : `${status} ${problem.title}: ${detail}`;
}
