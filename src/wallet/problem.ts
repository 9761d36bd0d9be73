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

const titles: { readonly [K in WalletProblemCode]: string } = {
  'invalid-path': 'Invalid path',
  'invalid-json': 'Invalid JSON body',
  'invalid-push-token': 'Invalid push token',
  'invalid-logs': 'Invalid logs',
  'invalid-personalization': 'Invalid personalization',
  'missing-credentials': 'Missing credentials',
  'invalid-credentials': 'Invalid credentials',
  'not-found': 'Not found',
  'method-not-allowed': 'Method not allowed',
  'body-too-large': 'Body too large',
  'uri-too-long': 'URI too long',
  'internal-error': 'Internal error',
};

const encoder = new TextEncoder();

/**
 * A problem response; `head` leaves the body out (the headers stay).
 *
 * @example
 * ```ts
 * problemResponse('not-found', 404, 'Nothing is served here.', false).status; // 404
 * ```
 */
export function problemResponse(
  code: WalletProblemCode,
  status: number,
  detail: string,
  head: boolean,
  extra?: Readonly<Record<string, string>>,
): Response {
  const problem: WalletProblem = { type: `https://passmint.dev/problems/${code}`, title: titles[code], status, detail, code };
  const body = encoder.encode(JSON.stringify(problem));
  return new Response(head ? null : body, {
    status,
    headers: {
      'content-type': 'application/problem+json',
      'content-length': String(body.length),
      'cache-control': 'no-store',
      ...extra,
    },
  });
}
