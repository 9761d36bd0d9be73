// Google may deliver a callback more than once; its nonce tells repeats.
import type { SqlQueryable } from './sql.js';

/**
 * Past its `expTimeMillis` a callback is refused anyway; its nonce is kept
 * this much longer, for clocks that disagree.
 */
const NONCE_SLACK_MS = 60 * 60 * 1000;

/** Longest nonce kept, in characters (Google's are a few dozen); a longer one is refused before it is stored. */
export const MAX_NONCE_LENGTH = 256;

/** Fewest and most milliseconds a nonce is kept (a message claiming to expire in a year keeps it a week). */
const MIN_KEEP_MS = 60 * 1000;
const MAX_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Records a callback's nonce, inside the caller's transaction; `false` when
 * it was seen before (a repeat: drop it). It is kept until the message
 * expires and an hour more, but never less than a minute nor more than 7
 * days, whatever the message says. Expired nonces are removed on the way, a
 * hundred at a time.
 *
 * @throws {RangeError} for a nonce longer than {@link MAX_NONCE_LENGTH} (the route refuses it first).
 */
export async function firstNonce(tx: SqlQueryable, nonce: string, expTimeMillis: number, now: number = Date.now()): Promise<boolean> {
  if (nonce.length > MAX_NONCE_LENGTH) throw new RangeError(`A callback nonce is at most ${MAX_NONCE_LENGTH} characters`);
  await tx.query(
    `delete from passmint_google_nonces where nonce in (
       select nonce from passmint_google_nonces where expires_at < now() limit 100 for update skip locked)`,
  );
  const wanted = expTimeMillis + NONCE_SLACK_MS - now;
  const keep = Number.isFinite(wanted) ? Math.min(Math.max(wanted, MIN_KEEP_MS), MAX_KEEP_MS) : MAX_KEEP_MS;
  const rows = await tx.query(
    `insert into passmint_google_nonces (nonce, expires_at) values ($1, now() + $2 * interval '1 millisecond')
     on conflict (nonce) do nothing returning 1`,
    [nonce, Math.round(keep)],
  );
  return rows.length > 0;
}
