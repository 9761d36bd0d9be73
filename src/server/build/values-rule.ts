import { ServiceProblem } from '../../http/problem.js';

/** U+0000, or half of a UTF-16 surrogate pair standing alone. */
const UNSTORABLE = /\u0000|\p{Cs}/u;

/** A JSON Pointer segment (RFC 6901). */
const segment = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Why a pass's values cannot be kept as they are, or `undefined` when they can:
 * a NUL character (U+0000) or a lone surrogate in any string or key. Neither
 * has a place in PostgreSQL's text or jsonb (the values are searched as
 * jsonb), nor in UTF-8 (a lone surrogate would come back as U+FFFD, a value
 * that changed by being stored). One rule for every way values arrive — a
 * create, a `PUT …/values`, an import's record — checked where the service
 * renders a pass from them: a 422 `invalid-values` naming the value's path.
 *
 * @example
 * ```ts
 * unstorableValues({ name: 'a\u0000b' })?.issues?.[0]?.path; // '/name'
 * ```
 */
export function unstorableValues(values: unknown): ServiceProblem | undefined {
  // Iterative: values may nest deep.
  const pending: { readonly value: unknown; readonly path: string }[] = [{ value: values, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return problem(path, value.includes('\u0000') ? 'a NUL character (U+0000)' : 'a lone surrogate (half of a UTF-16 pair)');
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        const childPath = `${path}/${segment(key)}`;
        if (UNSTORABLE.test(key)) return problem(childPath, `a name with ${key.includes('\u0000') ? 'a NUL character (U+0000)' : 'a lone surrogate'}`);
        pending.push({ value: child, path: childPath });
      }
    }
  }
  return undefined;
}

function problem(path: string, what: string): ServiceProblem {
  const message = `The value at ${JSON.stringify(path)} holds ${what}, which cannot be stored`;
  return new ServiceProblem(422, 'invalid-values', `${message}.`, { issues: [{ severity: 'error', code: 'invalid-value', message, path }] });
}
