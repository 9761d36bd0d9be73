// Idempotency keys as rows: the first answer to a POST, per API key and Idempotency-Key.
import type { SqlQueryable } from './sql.js';

/** How long an answer is replayed: Stripe's 24 hours, from the first request. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

/** The first answer as kept: status, the headers that matter, and the body (unless it was too large to keep). */
export interface KeptAnswer {
  /** SHA-256 (hex) of the request that made it: method, path with query, body. */
  readonly requestHash: string;
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  /** `undefined` when the answer was larger than the service keeps. */
  readonly body: Uint8Array | undefined;
}

/**
 * What claiming a key found: `claimed` (this request runs, under `lease`),
 * `running` (another request with the key has not answered yet), or
 * `done` (its answer, to replay).
 */
export type IdempotencyClaim = { readonly state: 'claimed' } | { readonly state: 'running' } | { readonly state: 'done'; readonly answer: KeptAnswer };

interface KeyRow {
  state: 'running' | 'done';
  lease: string | null;
  request_hash: string | null;
  status: number | null;
  headers: [string, string][] | null;
  body: Uint8Array | null;
  body_kept: boolean | null;
}

/**
 * Claims `key` of API key `apiKeyId` for a request, under `lease` for
 * `leaseMs`: a new key, one whose answer is older than the window, or one
 * whose running request's lease ran out (its process died) is claimed;
 * otherwise the state found is answered. One statement claims, so of two
 * requests at once exactly one runs.
 *
 * @example
 * ```ts
 * const claim = await claimIdempotencyKey(db, keyId, 'order-7', crypto.randomUUID(), 60_000);
 * if (claim.state === 'done') replay(claim.answer);
 * ```
 */
export async function claimIdempotencyKey(sql: SqlQueryable, apiKeyId: string, key: string, lease: string, leaseMs: number): Promise<IdempotencyClaim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await sql.query<{ lease: string }>(
      `insert into passmint_idempotency_keys as k (api_key_id, idempotency_key, state, lease, locked_until)
       values ($1, $2, 'running', $3::uuid, now() + $4 * interval '1 millisecond')
       on conflict (api_key_id, idempotency_key) do update
         set state = 'running', lease = excluded.lease, locked_until = excluded.locked_until, created_at = now(),
             request_hash = null, status = null, headers = null, body = null, body_kept = null
         where (k.state = 'running' and k.locked_until < now())
            or (k.state = 'done' and k.created_at < now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours')
       returning lease`,
      [apiKeyId, key, lease, leaseMs],
    );
    if (claimed[0]?.lease === lease) return { state: 'claimed' };
    const rows = await sql.query<KeyRow>(
      `select state, lease, request_hash, status, headers, body, body_kept from passmint_idempotency_keys
        where api_key_id = $1 and idempotency_key = $2`,
      [apiKeyId, key],
    );
    const row = rows[0];
    // Gone between the two statements (released by its request, or deleted by retention): claim again.
    if (row === undefined) continue;
    if (row.state === 'running') return { state: 'running' };
    return {
      state: 'done',
      answer: {
        requestHash: row.request_hash ?? '',
        status: row.status ?? 500,
        headers: row.headers ?? [],
        body: row.body_kept === true && row.body !== null ? row.body : undefined,
      },
    };
  }
  return { state: 'running' };
}

/**
 * Extends the lease of a running request (while its handler runs); `false`
 * when the claim is no longer this lease's.
 *
 * @example
 * ```ts
 * await extendIdempotencyKey(db, keyId, 'order-7', lease, 60_000);
 * ```
 */
export async function extendIdempotencyKey(sql: SqlQueryable, apiKeyId: string, key: string, lease: string, leaseMs: number): Promise<boolean> {
  const rows = await sql.query(
    `update passmint_idempotency_keys set locked_until = now() + $4 * interval '1 millisecond'
      where api_key_id = $1 and idempotency_key = $2 and lease = $3::uuid and state = 'running' returning 1`,
    [apiKeyId, key, lease, leaseMs],
  );
  return rows.length > 0;
}

/**
 * Keeps the first answer of the request holding `lease`; `false` when the
 * claim was no longer its own (its lease ran out and another request took the key).
 *
 * @example
 * ```ts
 * await completeIdempotencyKey(db, keyId, 'order-7', lease, { requestHash, status: 201, headers: [['location', url]], body });
 * ```
 */
export async function completeIdempotencyKey(sql: SqlQueryable, apiKeyId: string, key: string, lease: string, answer: KeptAnswer): Promise<boolean> {
  const rows = await sql.query(
    `update passmint_idempotency_keys
        set state = 'done', lease = null, locked_until = null, request_hash = $4, status = $5, headers = $6::json, body = $7, body_kept = $8
      where api_key_id = $1 and idempotency_key = $2 and lease = $3::uuid and state = 'running' returning 1`,
    [apiKeyId, key, lease, answer.requestHash, answer.status, JSON.stringify(answer.headers), answer.body ?? null, answer.body !== undefined],
  );
  return rows.length > 0;
}

/**
 * Lets go of a key whose request kept no answer (a 5xx, a 429, a body it
 * did not read to its end): the next request with the key runs.
 *
 * @example
 * ```ts
 * await releaseIdempotencyKey(db, keyId, 'order-7', lease);
 * ```
 */
export async function releaseIdempotencyKey(sql: SqlQueryable, apiKeyId: string, key: string, lease: string): Promise<void> {
  await sql.query(`delete from passmint_idempotency_keys where api_key_id = $1 and idempotency_key = $2 and lease = $3::uuid and state = 'running'`, [
    apiKeyId,
    key,
    lease,
  ]);
}

/**
 * Retention: deletes up to `limit` keys older than the replay window (and
 * no longer running), oldest first; resolves to how many went. `days`, the
 * events' retention, does not apply: the window is fixed.
 *
 * @example
 * ```ts
 * await deleteOldIdempotencyKeys(tx, 30, 1000);
 * ```
 */
export async function deleteOldIdempotencyKeys(sql: SqlQueryable, _days: number, limit: number): Promise<number> {
  const rows = await sql.query(
    `delete from passmint_idempotency_keys where (api_key_id, idempotency_key) in (
       select api_key_id, idempotency_key from passmint_idempotency_keys
        where created_at < now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours' and (state = 'done' or locked_until < now())
        order by created_at limit $1)
     returning 1`,
    [limit],
  );
  return rows.length;
}
