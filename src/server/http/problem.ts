import type { Issue } from '../../issues.js';

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
  | 'internal-error';

const titles: { readonly [K in ServiceProblemCode]: string } = {
  'not-found': 'Not found',
  'uri-too-long': 'URI too long',
  'method-not-allowed': 'Method not allowed',
  'missing-credentials': 'Missing credentials',
  'invalid-credentials': 'Invalid credentials',
  'insufficient-scope': 'Insufficient scope',
  'invalid-path': 'Invalid path',
  'invalid-query': 'Invalid query',
  'unsupported-media-type': 'Unsupported media type',
  'body-too-large': 'Body too large',
  'invalid-json': 'Invalid JSON',
  'invalid-body': 'Invalid body',
  'invalid-template': 'Invalid template',
  'invalid-values': 'Invalid values',
  'invalid-pass': 'Invalid pass',
  'invalid-file': 'Invalid file',
  'invalid-webhook-url': 'Invalid webhook URL',
  'template-not-found': 'Template not found',
  'pass-not-found': 'Pass not found',
  'webhook-not-found': 'Webhook not found',
  'event-not-found': 'Event not found',
  'key-not-found': 'API key not found',
  'file-not-found': 'File not found',
  'template-in-use': 'Template in use',
  'pass-exists': 'Pass exists',
  'webhook-disabled': 'Webhook disabled',
  'signing-not-configured': 'Signing not configured',
  'cannot-pack': 'Cannot pack the pass',
  'not-ready': 'Not ready',
  'database-unavailable': 'Database unavailable',
  'google-not-configured': 'Google Wallet not configured',
  'google-not-ready': 'Google Wallet object not ready',
  'google-keys-unavailable': 'Google keys unavailable',
  'invalid-callback': 'Invalid callback',
  'rate-limited': 'Too many requests',
  'client-closed': 'Client closed request',
  'too-many-files': 'Too many files',
  'bundle-too-large': 'Bundle too large',
  'internal-error': 'Internal error',
};

/**
 * A client's mistake found while handling a request: thrown inside the
 * service's routes and answered as an RFC 9457 problem, never as a 500.
 *
 * @example
 * ```ts
 * throw new ServiceProblem(404, 'pass-not-found', 'No pass "M-1" of type "pass.com.example.member" exists.');
 * ```
 */
export class ServiceProblem extends Error {
  override readonly name = 'ServiceProblem';
  readonly status: number;
  readonly code: ServiceProblemCode;
  readonly issues: readonly Issue[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: ServiceProblemCode, detail: string, options: { issues?: readonly Issue[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.status = status;
    this.code = code;
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

/** The `application/problem+json` response for a problem. */
export function problemResponse(problem: ServiceProblem, head = false): Response {
  const issues = problem.issues;
  const more = issues === undefined || issues.length <= MAX_ISSUES ? '' : ` (${issues.length} issues; the first ${MAX_ISSUES} are listed)`;
  const body = {
    type: `https://passmint.dev/problems/${problem.code}`,
    title: titles[problem.code],
    status: problem.status,
    detail: problem.message + more,
    code: problem.code,
    ...(issues === undefined ? {} : { issues: issues.slice(0, MAX_ISSUES) }),
  };
  return new Response(head ? null : JSON.stringify(body), {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json', ...problem.headers },
  });
}
