import type { Issue } from '../issues.js';

/**
 * Every `code` passmint puts in a problem body, as a stable string.
 *
 * The handler sends the first eleven; the client makes up the last five:
 * `invalid-response` and `http-error` when the server sent something
 * unusable, `response-too-large` over `maxResponseBytes`, and — with status
 * 0, when no response arrived — `timeout` and `network-error`. A code never
 * changes meaning once released; new codes may be added.
 *
 * @example
 * ```ts
 * const retryable = (code: ProblemCode): boolean => code === 'internal-error' || code === 'http-error';
 * ```
 */
export type ProblemCode =
  // 400
  | 'invalid-path'
  | 'invalid-template-id'
  // 401
  | 'missing-credentials'
  | 'invalid-credentials'
  // 404
  | 'not-found'
  | 'pass-not-found'
  | 'template-not-found'
  // 405, 406, 414, 500
  | 'method-not-allowed'
  | 'not-acceptable'
  | 'uri-too-long'
  | 'internal-error'
  // made up by the client
  | 'invalid-response'
  | 'http-error'
  | 'response-too-large'
  | 'timeout'
  | 'network-error';

/**
 * An RFC 9457 problem body (`application/problem+json`) with passmint's stable `code`.
 *
 * `type` is `https://passmint.dev/problems/<code>` for every problem the
 * handler sends: an identifier to compare, not a page to fetch. Problems from
 * other servers keep whatever members they had.
 *
 * @example
 * ```ts
 * const problem: Problem = {
 *   type: 'https://passmint.dev/problems/pass-not-found',
 *   title: 'Pass not found',
 *   status: 404,
 *   detail: 'No pass "123" of type "pass.com.example.member" exists.',
 *   code: 'pass-not-found',
 * };
 * ```
 */
export interface Problem {
  /** A URI naming the kind of problem; `about:blank` when the server sent none. */
  readonly type: string;
  /** A short summary of the kind of problem; the same for every occurrence. */
  readonly title: string;
  /** The HTTP status code the server gave; 0 when no response arrived (`timeout`, `network-error`). */
  readonly status: number;
  /** What went wrong this time, for a person. */
  readonly detail: string;
  /** A stable code to branch on. */
  readonly code: ProblemCode | (string & {});
  /** Validation issues, on an `invalid-response` problem made by the client. */
  readonly issues?: readonly Issue[];
  /** Other extension members a server sent. */
  readonly [member: string]: unknown;
}

const typeBase = 'https://passmint.dev/problems/';

const titles: { readonly [K in ProblemCode]: string } = {
  'invalid-path': 'Invalid path',
  'invalid-template-id': 'Invalid template id',
  'missing-credentials': 'Missing credentials',
  'invalid-credentials': 'Invalid credentials',
  'not-found': 'Not found',
  'pass-not-found': 'Pass not found',
  'template-not-found': 'Template not found',
  'method-not-allowed': 'Method not allowed',
  'not-acceptable': 'Not acceptable',
  'uri-too-long': 'URI too long',
  'internal-error': 'Internal error',
  'invalid-response': 'Invalid response',
  'http-error': 'HTTP error',
  'response-too-large': 'Response too large',
  timeout: 'Timeout',
  'network-error': 'Network error',
};

/**
 * Makes the problem object for one of passmint's codes.
 *
 * @example
 * ```ts
 * createProblem('template-not-found', 404, 'No template 7 exists.').type;
 * // 'https://passmint.dev/problems/template-not-found'
 * ```
 */
export function createProblem(code: ProblemCode, status: number, detail: string): Problem {
  return { type: typeBase + code, title: titles[code], status, detail, code };
}
