// An internal error of `passmint serve` as one JSON log line, like every other
// event it logs: what failed and where, never a secret, and its stack trace
// only when asked for (--debug).
import type { ErrorPlace, LogEntry } from '../server/index.js';

/** Longest message kept in a line; the rest is cut (an error can quote a whole body). */
const MAX_MESSAGE = 2000;

// What could carry a secret in an error's text: a URL's password, a bearer
// token or API key, Apple's pass token, a `?token=` link.
const SECRETS: readonly [RegExp, string][] = [
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]*@/gi, '$1***@'],
  [/\b(Bearer|ApplePass)(\s+)\S+/gi, '$1$2***'],
  [/\bpm_[A-Za-z0-9_-]{8,}/g, 'pm_***'],
  [/([?&](?:token|key)=)[^&\s"']+/gi, '$1***'],
];

/** The text with anything that looks like a secret replaced by `***`. */
export function withoutSecrets(text: string): string {
  return SECRETS.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

/**
 * The log line of an internal error: `type` and `level` "error", its name,
 * message and code (a PostgreSQL SQLSTATE, a Node `E…` code), the request's
 * method, route template and id when one was being answered, and the stack
 * trace only with `debug` — each text with secrets masked.
 *
 * @example
 * ```ts
 * errorLogEntry(new Error('boom'), { method: 'GET', route: '/v1/passes' }, { debug: false });
 * // { time: '…', type: 'error', level: 'error', name: 'Error', message: 'boom', method: 'GET', route: '/v1/passes' }
 * ```
 */
export function errorLogEntry(error: unknown, where: ErrorPlace | undefined, options: { readonly debug: boolean; readonly now?: Date }): LogEntry {
  const isError = error instanceof Error;
  const message = withoutSecrets(isError ? error.message : String(error));
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return {
    time: (options.now ?? new Date()).toISOString(),
    type: 'error',
    level: 'error',
    name: isError ? error.name : typeof error,
    message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(where?.method === undefined ? {} : { method: where.method }),
    ...(where?.route === undefined ? {} : { route: where.route }),
    ...(where?.requestId === undefined ? {} : { requestId: where.requestId }),
    ...(options.debug && isError && error.stack !== undefined ? { stack: withoutSecrets(error.stack) } : {}),
  };
}
