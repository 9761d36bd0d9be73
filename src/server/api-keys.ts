import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readBearerToken } from '../http/bearer-auth.js';
import type { SqlDatabase } from './sql.js';

const FIRST_KEY_LOCK = 0x7061_7374; // 'past': serializes "is there a key yet?" across processes

const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** A new API key: `pm_` and 32 random bytes, base64url. */
export function generateApiKey(): string {
  return `pm_${randomBytes(32).toString('base64url')}`;
}

/**
 * Makes the first API key when the database has none, and returns it (only
 * its SHA-256 is stored, so this is the one time it can be shown);
 * `undefined` when keys exist. Several processes starting at once make one.
 */
export async function ensureFirstApiKey(db: SqlDatabase): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [FIRST_KEY_LOCK]);
    const rows = await tx.query('select 1 from passmint_api_keys limit 1');
    if (rows.length > 0) return undefined;
    const key = generateApiKey();
    await tx.query('insert into passmint_api_keys (key_hash) values ($1)', [hashKey(key)]);
    return key;
  });
}

/** Stores another API key (given, or made); returns it. */
export async function addApiKey(db: SqlDatabase, key: string = generateApiKey()): Promise<string> {
  await db.query('insert into passmint_api_keys (key_hash) values ($1) on conflict do nothing', [hashKey(key)]);
  return key;
}

/**
 * `Authorization: Bearer <key>` against the keys in the database (their
 * SHA-256, compared in constant time) and the keys given in code. Keys are
 * read from the database at most once a second, so a key added by another
 * process works within a second.
 */
export function databaseAuth(db: SqlDatabase, extraKeys: readonly string[] = []): (request: Request) => Promise<boolean> {
  const extra = extraKeys.map(hashKey);
  let hashes: readonly Buffer[] = [];
  let readAt = 0;
  const refresh = async (): Promise<void> => {
    const rows = await db.query<{ key_hash: string }>('select key_hash from passmint_api_keys');
    hashes = [...rows.map((row) => row.key_hash), ...extra].map((hash) => Buffer.from(hash, 'hex'));
    readAt = Date.now();
  };
  const matches = (presented: Buffer): boolean => {
    let found = false;
    for (const hash of hashes) found = timingSafeEqual(hash, presented) || found;
    return found;
  };
  return async (request) => {
    const token = readBearerToken(request.headers.get('authorization'));
    if (token === undefined || token.length > 512) return false;
    const presented = Buffer.from(hashKey(token), 'hex');
    if (readAt === 0) await refresh();
    if (matches(presented)) return true;
    if (Date.now() - readAt < 1000) return false;
    await refresh();
    return matches(presented);
  };
}
