// How long a claim on queued work lasts, checked against how long the work may take.

/** How much longer than one POST's time limit a lease must be, in ms (for recording the outcome). */
export const LEASE_MARGIN_MS = 500;

/**
 * The default lease: a minute, or twice the time limit of one POST when that is longer.
 *
 * @example
 * ```ts
 * defaultLeaseMs(15_000); // 60 000
 * defaultLeaseMs(45_000); // 90 000
 * ```
 */
export function defaultLeaseMs(timeoutMs: number): number {
  return Math.max(60_000, 2 * timeoutMs);
}

/**
 * Why a lease cannot cover a delivery, or `undefined` when it can: a lease
 * must outlast the attempt it covers (`timeoutMs`) by at least
 * {@link LEASE_MARGIN_MS}; otherwise another process could take the
 * delivery while the first still waits for the receiver, and the event
 * would arrive twice.
 *
 * @example
 * ```ts
 * leaseProblem(1000, 15_000); // 'The lease (1000 ms) must be longer than …'
 * leaseProblem(60_000, 15_000); // undefined
 * ```
 */
export function leaseProblem(leaseMs: number, timeoutMs: number): string | undefined {
  if (leaseMs >= timeoutMs + LEASE_MARGIN_MS) return undefined;
  return (
    `The lease (${leaseMs} ms) must be longer than a delivery's time limit (${timeoutMs} ms) by at least ${LEASE_MARGIN_MS} ms: ` +
    `raise the lease to ${timeoutMs + LEASE_MARGIN_MS} ms or more, or lower the time limit.`
  );
}
