/**
 * One request's time limit joined with the caller's abort signal. `signal`
 * goes to `fetch`; `cutShort` rejects when either fires, so racing a fetch (or
 * a body read) against it ends the call on time even when that fetch ignores
 * its signal; `timedOut` tells which fired. Call `dispose` when done.
 *
 * @example
 * ```ts
 * const limit = timeLimit(10_000, options.signal);
 * try {
 *   const response = await Promise.race([fetch(url, { signal: limit.signal }), limit.cutShort]);
 * } catch (error) {
 *   if (limit.timedOut) console.error('no response within 10 s');
 * } finally {
 *   limit.dispose();
 * }
 * ```
 */
export function timeLimit(timeoutMs: number, outer?: AbortSignal): TimeLimit {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`No response within ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = (): void => controller.abort(outer?.reason);
  const cutShort = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  cutShort.catch(() => undefined);
  if (outer?.aborted === true) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    cutShort,
    get timedOut() {
      return timedOut;
    },
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/** What {@link timeLimit} gives. */
export interface TimeLimit {
  readonly signal: AbortSignal;
  readonly cutShort: Promise<never>;
  readonly timedOut: boolean;
  dispose(): void;
}
