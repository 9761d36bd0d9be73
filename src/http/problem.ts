// Problems (RFC 9457, `application/problem+json`) for the whole package: the
// seed's handler and the client, Apple's web service handler and the service
// all name their codes here, take their titles from one table and answer
// through one function.
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
 * Every `code` the wallet handler puts in an `application/problem+json` body.
 * A code never changes meaning once released; new codes may be added.
 *
 * @example
 * ```ts
 * const deviceMistake = (code: WalletProblemCode): boolean => code === 'invalid-push-token' || code === 'invalid-json';
 * ```
 */
export type WalletProblemCode =
  // 400
  | 'invalid-path'
  | 'invalid-json'
  | 'invalid-push-token'
  | 'invalid-logs'
  | 'invalid-personalization'
  // 401
  | 'missing-credentials'
  | 'invalid-credentials'
  // 404, 405, 413, 414, 500
  | 'not-found'
  | 'method-not-allowed'
  | 'body-too-large'
  | 'uri-too-long'
  | 'internal-error';

/**
 * Every `code` the service's own routes put in a problem body (the seed's
 * two GETs and Apple's web service keep theirs).
 *
 * @example
 * ```ts
 * if (problem.code === 'invalid-values') showIssues(problem.issues);
 * ```
 */
export type ServiceProblemCode =
  | 'not-found'
  | 'uri-too-long'
  | 'method-not-allowed'
  | 'missing-credentials'
  | 'invalid-credentials'
  | 'insufficient-scope'
  | 'invalid-path'
  | 'invalid-query'
  | 'unsupported-media-type'
  | 'body-too-large'
  | 'invalid-json'
  | 'invalid-body'
  | 'invalid-template'
  | 'invalid-values'
  | 'invalid-pass'
  | 'invalid-file'
  | 'image-too-large'
  | 'invalid-personalization'
  | 'invalid-webhook-url'
  | 'template-not-found'
  | 'pass-not-found'
  | 'webhook-not-found'
  | 'event-not-found'
  | 'key-not-found'
  | 'file-not-found'
  | 'template-in-use'
  | 'pass-exists'
  | 'webhook-disabled'
  | 'signing-not-configured'
  | 'cannot-pack'
  | 'not-ready'
  | 'database-unavailable'
  | 'google-not-configured'
  | 'google-not-ready'
  | 'google-keys-unavailable'
  | 'invalid-callback'
  | 'rate-limited'
  | 'client-closed'
  | 'too-many-files'
  | 'bundle-too-large'
  | 'invalid-idempotency-key'
  | 'idempotency-key-in-use'
  | 'idempotency-key-reused'
  | 'idempotency-answer-not-kept'
  | 'invalid-import'
  | 'too-many-rows'
  | 'job-not-found'
  | 'job-ended'
  | 'csrf-token-invalid'
  | 'console-not-built'
  | 'invalid-certificate'
  | 'certificate-not-found'
  | 'certificate-conflict'
  | 'certificate-expired'
  | 'secret-key-missing'
  | 'pass-voided'
  | 'pass-expired'
  | 'no-message-field'
  | 'internal-error';

/**
 * Every code any part of passmint sends or makes up.
 *
 * @example
 * ```ts
 * const code: AnyProblemCode = 'invalid-push-token';
 * ```
 */
export type AnyProblemCode = ProblemCode | WalletProblemCode | ServiceProblemCode;

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

/**
 * An RFC 9457 problem body as the wallet handler sends it.
 *
 * @example
 * ```ts
 * const problem: WalletProblem = await response.json();
 * if (problem.code === 'invalid-push-token') console.warn(problem.detail);
 * ```
 */
export interface WalletProblem {
  /** `https://passmint.dev/problems/<code>`: an identifier to compare, not a page to fetch. */
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: WalletProblemCode;
}

const typeBase = 'https://passmint.dev/problems/';

// One title per code, whoever sends it: the same code reads the same everywhere.
const titles: { readonly [K in AnyProblemCode]: string } = {
  'invalid-path': 'Invalid path',
  'invalid-template-id': 'Invalid template id',
  'invalid-query': 'Invalid query',
  'invalid-json': 'Invalid JSON',
  'invalid-body': 'Invalid body',
  'invalid-push-token': 'Invalid push token',
  'invalid-logs': 'Invalid logs',
  'invalid-personalization': 'Invalid personalization',
  'invalid-template': 'Invalid template',
  'invalid-values': 'Invalid values',
  'invalid-pass': 'Invalid pass',
  'invalid-file': 'Invalid file',
  'image-too-large': 'Image too large',
  'invalid-webhook-url': 'Invalid webhook URL',
  'invalid-callback': 'Invalid callback',
  'missing-credentials': 'Missing credentials',
  'invalid-credentials': 'Invalid credentials',
  'insufficient-scope': 'Insufficient scope',
  'not-found': 'Not found',
  'pass-not-found': 'Pass not found',
  'template-not-found': 'Template not found',
  'webhook-not-found': 'Webhook not found',
  'event-not-found': 'Event not found',
  'key-not-found': 'API key not found',
  'file-not-found': 'File not found',
  'method-not-allowed': 'Method not allowed',
  'not-acceptable': 'Not acceptable',
  'template-in-use': 'Template in use',
  'pass-exists': 'Pass exists',
  'webhook-disabled': 'Webhook disabled',
  'signing-not-configured': 'Signing not configured',
  'google-not-configured': 'Google Wallet not configured',
  'body-too-large': 'Body too large',
  'bundle-too-large': 'Bundle too large',
  'uri-too-long': 'URI too long',
  'unsupported-media-type': 'Unsupported media type',
  'cannot-pack': 'Cannot pack the pass',
  'too-many-files': 'Too many files',
  'invalid-import': 'Invalid import',
  'too-many-rows': 'Too many rows',
  'job-not-found': 'Job not found',
  'job-ended': 'Job ended',
  'csrf-token-invalid': 'CSRF token invalid',
  'console-not-built': 'Console not built',
  'invalid-certificate': 'Invalid certificate',
  'certificate-not-found': 'Certificate not found',
  'certificate-conflict': 'Certificate of another team',
  'certificate-expired': 'Certificate expired',
  'secret-key-missing': 'No secret key',
  'pass-voided': 'Pass voided',
  'pass-expired': 'Pass expired',
  'no-message-field': 'No field for messages',
  'invalid-idempotency-key': 'Invalid Idempotency-Key',
  'idempotency-key-in-use': 'Idempotency-Key in use',
  'idempotency-key-reused': 'Idempotency-Key reused',
  'idempotency-answer-not-kept': 'Answer not kept',
  'rate-limited': 'Too many requests',
  'client-closed': 'Client closed request',
  'internal-error': 'Internal error',
  'not-ready': 'Not ready',
  'database-unavailable': 'Database unavailable',
  'google-not-ready': 'Google Wallet object not ready',
  'google-keys-unavailable': 'Google keys unavailable',
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

/**
 * What a problem answer is made of: its status, code and detail, the issues
 * it lists, and headers it carries (`Allow`, `WWW-Authenticate`, `Retry-After`).
 *
 * @example
 * ```ts
 * const refusal: ProblemInit = { status: 405, code: 'method-not-allowed', detail: 'GET only.', headers: { allow: 'GET, HEAD' } };
 * ```
 */
export interface ProblemInit {
  readonly status: number;
  readonly code: AnyProblemCode;
  readonly detail: string;
  readonly issues?: readonly Issue[] | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * A client's mistake found while handling a request: thrown inside the
 * service's routes and answered as an RFC 9457 problem, never as a 500.
 *
 * @example
 * ```ts
 * throw new ServiceProblem(404, 'pass-not-found', 'No pass "M-1" of type "pass.com.example.member" exists.');
 * ```
 */
export class ServiceProblem extends Error implements ProblemInit {
  override readonly name = 'ServiceProblem';
  readonly status: number;
  readonly code: ServiceProblemCode;
  readonly detail: string;
  readonly issues: readonly Issue[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: ServiceProblemCode, detail: string, options: { issues?: readonly Issue[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }
}

/**
 * Most issues a problem body lists. A 180 KB template of 60,000 empty fields
 * had 120,000 issues: a 17 MB answer. The first ones say what to fix; the
 * detail gives the total.
 */
const MAX_ISSUES = 100;

const encoder = new TextEncoder();

/**
 * How {@link problemResponse} answers: `head` leaves the body out (the
 * headers stay); `length: false` leaves `Content-Length` out, so a Node
 * listener writes the answer chunked (the service does: behind a refused
 * body it never read, a pipelined request on the same connection is still
 * answered).
 *
 * @example
 * ```ts
 * const options: ProblemResponseOptions = { head: request.method === 'HEAD' };
 * ```
 */
export interface ProblemResponseOptions {
  readonly head?: boolean | undefined;
  readonly length?: boolean | undefined;
}

/**
 * The `application/problem+json` response for a problem, never stored by a
 * cache, with at most 100 of its issues.
 *
 * @example
 * ```ts
 * problemResponse({ status: 404, code: 'not-found', detail: 'Nothing is served here.' }).status; // 404
 * ```
 */
export function problemResponse(problem: ProblemInit, options: ProblemResponseOptions = {}): Response {
  const { code, status, issues } = problem;
  const more = issues === undefined || issues.length <= MAX_ISSUES ? '' : ` (${issues.length} issues; the first ${MAX_ISSUES} are listed)`;
  const body = {
    type: typeBase + code,
    title: titles[code],
    status,
    detail: problem.detail + more,
    code,
    ...(issues === undefined ? {} : { issues: issues.slice(0, MAX_ISSUES) }),
  };
  const bytes = encoder.encode(JSON.stringify(body));
  const length: Record<string, string> = options.length === false ? {} : { 'content-length': String(bytes.length) };
  return new Response(options.head === true ? null : bytes, {
    status,
    headers: { 'content-type': 'application/problem+json', ...length, 'cache-control': 'no-store', ...problem.headers },
  });
}
