/**
 * A handler's `onError`, made safe to call on the way to a 500: a logger that
 * throws, or returns a promise that rejects, changes nothing about the answer
 * and never becomes an unhandled rejection. Without a logger, a no-op.
 *
 * @example
 * ```ts
 * const report = errorReporter(options.onError);
 * report(error, request); // never throws
 * ```
 */
export function errorReporter(onError: ((error: unknown, request: Request) => void) | undefined): (error: unknown, request: Request) => void {
  return (error, request) => {
    if (onError === undefined) return;
    try {
      const result: unknown = onError(error, request);
      if (isPromiseLike(result)) result.then(undefined, () => undefined);
    } catch {
      // The logger's own failure must not change the answer.
    }
  };
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
