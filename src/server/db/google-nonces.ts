// Google may deliver a callback more than once; its nonce tells repeats.
import type { SqlQueryable } from './sql.js';

/**
 * Past its `expTimeMillis` a callback is refused anyway; its nonce is kept
 * this much longer, for clocks that disagree.
 */
const NONCE_SLACK_MS = 60 * 60 * 1000;

/** Fewest and most milliseconds a nonce is kept (a message claiming to expire in a year keeps it a week). */
const MIN_KEEP_MS = 60 * 1000;
const MAX_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Records a callback's nonce, inside the caller's transaction; `false` when
 * it was seen before (a repeat: drop it). Expired nonces are removed on the
 * way, a hundred at a time.
 */
export async function firstNonce(tx: SqlQueryable, nonce: string, expTimeMillis: number, now: number = Date.now()): Promise<boolean> {
  await tx.query(
    `delete from passmint_google_nonces where nonce in (
       select nonce from passmint_google_nonces where expires_at < now() limit 100 for update skip locked)`,
  );
  const keep = Math.min(Math.max(expTimeMillis + NONCE_SLACK_MS - now, MIN_KEEP_MS), MAX_KEEP_MS);
  const rows = await tx.query(
    `insert into passmint_google_nonces (nonce, expires_at) values ($1, now() + $2 * interval '1 millisecond')
     on conflict (nonce) do nothing returning 1`,
    [nonce, Math.round(keep)],
  );
  return rows.length > 0;
}
