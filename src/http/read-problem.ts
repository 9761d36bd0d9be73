import { createProblem, type Problem } from './problem.js';

// Members the client fills in itself: a server's own `issues` would pose as
// the validator's findings (and `{"issues":"boom"}` once crashed the error).
const OWN_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'code', 'issues']);

/**
 * The RFC 9457 body of a refusal, checked member by member: any member of
 * the wrong type is replaced (`type` → `about:blank`, `title` → the status
 * text, `status` → the response's, `detail` → `''`, `code` → `http-error`),
 * and a body that is not a JSON object gives a made-up `http-error` problem.
 * Never throws, whatever the server sent.
 */
export function readProblem(response: Response, text: string): Problem {
  const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
  if (contentType.includes('json')) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const members = body as { readonly [member: string]: unknown };
      // Object.fromEntries defines own properties, so a "__proto__" member stays a plain member.
      const extensions = Object.fromEntries(Object.entries(members).filter(([name]) => !OWN_MEMBERS.has(name)));
      return {
        ...extensions,
        type: nonEmpty(members['type']) ?? 'about:blank',
        title: nonEmpty(members['title']) ?? (response.statusText || 'HTTP error'),
        status: httpStatus(members['status']) ?? response.status,
        detail: typeof members['detail'] === 'string' ? members['detail'] : '',
        code: nonEmpty(members['code']) ?? 'http-error',
      };
    }
  }
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return createProblem('http-error', response.status, `The server answered ${status} without a problem body.`);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function httpStatus(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599 ? value : undefined;
}
