// Console sessions: an API key exchanged for a cookie (see console/sessions.ts for the rules).
import type { ApiKeyScope } from './keys.js';
import type { SqlQueryable } from './sql.js';

/**
 * A session as stored, with the key it acts as (`key` is `undefined` when
 * that key is not in the database: revoked, deleted, or one of the keys
 * given in code, which the caller knows by `keyHash`).
 *
 * @example
 * ```ts
 * const session: SessionRecord = { keyHash: '…', csrfToken: '…', created: new Date(), lastSeen: new Date(), key: undefined };
 * ```
 */
export interface SessionRecord {
  readonly keyHash: string;
  readonly csrfToken: string;
  readonly created: Date;
  readonly lastSeen: Date;
  readonly key:
    | {
        readonly id: string;
        readonly name: string;
        readonly scopes: readonly ApiKeyScope[];
        readonly templateIds: readonly string[] | null;
        readonly revoked: boolean;
      }
    | undefined;
}

interface SessionRow {
  key_hash: string;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  id: string | null;
  name: string | null;
  scopes: ApiKeyScope[] | null;
  template_ids: string[] | null;
  revoked: boolean | null;
}

/**
 * Stores a new session (its token's SHA-256), acting as the key whose
 * SHA-256 is `keyHash`.
 *
 * @example
 * ```ts
 * await insertSession(db, { tokenHash, keyHash, csrfToken, now: new Date() });
 * ```
 */
export async function insertSession(
  sql: SqlQueryable,
  session: { readonly tokenHash: string; readonly keyHash: string; readonly csrfToken: string; readonly now: Date },
): Promise<void> {
  await sql.query('insert into passmint_console_sessions (token_hash, key_hash, csrf_token, created_at, last_seen_at) values ($1, $2, $3, $4, $4)', [
    session.tokenHash,
    session.keyHash,
    session.csrfToken,
    session.now,
  ]);
}

/**
 * A session by its token's SHA-256, with its key (one lookup by primary
 * key, one by the keys' primary key), or `undefined`.
 *
 * @example
 * ```ts
 * const session = await findSession(db, tokenHash);
 * ```
 */
export async function findSession(sql: SqlQueryable, tokenHash: string): Promise<SessionRecord | undefined> {
  const rows = await sql.query<SessionRow>(
    `select s.key_hash, s.csrf_token, s.created_at, s.last_seen_at, k.id::text as id, k.name, k.scopes, k.template_ids, k.revoked_at is not null as revoked
       from passmint_console_sessions s left join passmint_api_keys k on k.key_hash = s.key_hash
      where s.token_hash = $1`,
    [tokenHash],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    keyHash: row.key_hash,
    csrfToken: row.csrf_token,
    created: row.created_at,
    lastSeen: row.last_seen_at,
    key:
      row.id === null
        ? undefined
        : { id: row.id, name: row.name ?? '', scopes: row.scopes ?? [], templateIds: row.template_ids ?? null, revoked: row.revoked === true },
  };
}

/** Moves a session's last use to `now` (its idle time starts again). */
export async function touchSession(sql: SqlQueryable, tokenHash: string, now: Date): Promise<void> {
  await sql.query('update passmint_console_sessions set last_seen_at = $2 where token_hash = $1 and last_seen_at < $2', [tokenHash, now]);
}

/** Ends a session; resolves to whether there was one. */
export async function deleteSession(sql: SqlQueryable, tokenHash: string): Promise<boolean> {
  const rows = await sql.query('delete from passmint_console_sessions where token_hash = $1 returning 1', [tokenHash]);
  return rows.length > 0;
}

/**
 * Keeps a key's `keep` most recently used sessions and deletes the others
 * (read from the index on the key: at most the key's sessions).
 */
export async function trimSessionsOfKey(sql: SqlQueryable, keyHash: string, keep: number): Promise<void> {
  await sql.query(
    `delete from passmint_console_sessions where key_hash = $1 and token_hash not in (
       select token_hash from passmint_console_sessions where key_hash = $1 order by last_seen_at desc limit $2)`,
    [keyHash, keep],
  );
}

/**
 * Deletes at most `limit` sessions idle since before `cutoff` (read from the
 * index on the last use); resolves to how many went.
 */
export async function deleteIdleSessions(sql: SqlQueryable, cutoff: Date, limit: number): Promise<number> {
  const rows = await sql.query(
    `delete from passmint_console_sessions where token_hash in (
       select token_hash from passmint_console_sessions where last_seen_at < $1 order by last_seen_at limit $2) returning 1`,
    [cutoff, limit],
  );
  return rows.length;
}
