import { createHash, randomBytes } from 'node:crypto';
import { readBearerToken } from '../../http/bearer-auth.js';
import { COMMAND_LINE_ACTOR, recordAudit } from './audit.js';
import { ServiceProblem } from '../../http/problem.js';
import { lockForTransaction } from './locks.js';
import { missingTemplates } from './template-access.js';
import type { SqlDatabase, SqlQueryable } from './sql.js';

const FIRST_KEY_LOCK = 0x7061_7374; // 'past': serializes "is there a key yet?" across processes

/**
 * What an API key may do. `read`: every GET. `passes`: create passes from
 * templates, change their values, delete them (and read). `admin`:
 * everything, templates, webhooks, replays and keys included.
 *
 * @example
 * ```ts
 * const scopes: ApiKeyScope[] = ['passes'];
 * ```
 */
export type ApiKeyScope = 'read' | 'passes' | 'admin';

/** The scopes, weakest first. */
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ['read', 'passes', 'admin'];

/**
 * Whether a key with `scopes` may do what needs `needed`: `admin` grants
 * everything, `passes` grants `read` too.
 *
 * @example
 * ```ts
 * grants(['passes'], 'read'); // true
 * grants(['read'], 'passes'); // false
 * ```
 */
export function grants(scopes: readonly ApiKeyScope[], needed: ApiKeyScope): boolean {
  return scopes.includes(needed) || scopes.includes('admin') || (needed === 'read' && scopes.includes('passes'));
}

/**
 * An API key as listed: never the key itself (only its SHA-256 is stored),
 * but its first characters (`prefix`) to recognise it by.
 *
 * @example
 * ```ts
 * const key: ApiKeyRecord = { id: '…', name: 'shop backend', scopes: ['passes'], prefix: 'pm_Zk3q9Xa1', created: new Date(), lastUsed: null };
 * ```
 */
export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly ApiKeyScope[];
  /** The ids of the templates the key is limited to (decimal text), `null` for every template. */
  readonly templateIds: readonly string[] | null;
  /** `pm_` and the key's first 8 characters; `null` for a key made before names and scopes existed. */
  readonly prefix: string | null;
  readonly created: Date;
  /** When it was last accepted, to within a minute; `null` if never. */
  readonly lastUsed: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIX_LENGTH = 11; // 'pm_' and 8 characters: 48 of the key's 256 bits, enough to tell keys apart

const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** A new API key: `pm_` and 32 random bytes, base64url. */
export function generateApiKey(): string {
  return `pm_${randomBytes(32).toString('base64url')}`;
}

interface KeyRow {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  template_ids: string[] | null;
  prefix: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = 'id, name, scopes, template_ids, prefix, created_at, last_used_at';

const recordOf = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  templateIds: row.template_ids,
  prefix: row.prefix,
  created: row.created_at,
  lastUsed: row.last_used_at,
});

/** Whether the database ever held a key (revoked ones count). */
async function anyApiKeyEver(sql: SqlQueryable): Promise<boolean> {
  const rows = await sql.query('select 1 from passmint_api_keys limit 1');
  return rows.length > 0;
}

interface ActiveKeyRow {
  key_hash: string;
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  template_ids: string[] | null;
}

/** Every active key's SHA-256 (hex), id, name, scopes and templates: what the checker holds in memory. */
async function activeKeyHashes(sql: SqlQueryable): Promise<ActiveKeyRow[]> {
  return sql.query<ActiveKeyRow>('select key_hash, id, name, scopes, template_ids from passmint_api_keys where revoked_at is null');
}

/** Records that a key was accepted now. */
async function touchApiKey(sql: SqlQueryable, id: string): Promise<void> {
  await sql.query('update passmint_api_keys set last_used_at = now() where id = $1', [id]);
}

/** Stores a key's hash with its name, scopes and templates; resolves to its record. */
async function insertKey(
  sql: SqlQueryable,
  key: string,
  name: string,
  scopes: readonly ApiKeyScope[],
  templateIds: readonly string[] | null = null,
): Promise<ApiKeyRecord> {
  const rows = await sql.query<KeyRow>(
    `insert into passmint_api_keys (key_hash, id, name, scopes, prefix, template_ids) values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
    [
      hashKey(key),
      crypto.randomUUID(),
      name,
      [...scopes],
      key.startsWith('pm_') ? key.slice(0, PREFIX_LENGTH) : null,
      templateIds === null ? null : [...templateIds],
    ],
  );
  return recordOf(rows[0]!);
}

/** Records a change the command line made on the database (`passmint serve keys`) in the audit log. */
async function recordCommand(sql: SqlQueryable, action: string, target: string, status: number, problem: string | null = null): Promise<void> {
  await recordAudit(sql, {
    actorId: COMMAND_LINE_ACTOR,
    actorName: 'command line',
    via: 'command',
    address: null,
    action,
    target,
    status,
    problem,
    requestId: null,
  });
}

/**
 * Makes the first API key (an `admin` key named "first key") when the
 * database never had one, and returns it (only its SHA-256 is stored, so this
 * is the one time it can be shown); `undefined` when keys exist or existed —
 * revoking every key does not make a restart print a new one (use
 * `passmint serve keys create`). Several processes starting at once make one.
 */
export async function ensureFirstApiKey(db: SqlDatabase): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, FIRST_KEY_LOCK);
    if (await anyApiKeyEver(tx)) return undefined;
    const key = generateApiKey();
    await insertKey(tx, key, 'first key', ['admin']);
    return key;
  });
}

/**
 * Creates an API key with a name and scopes (and the templates it is limited
 * to); returns the key (shown once) and its record; a 422 `invalid-body`
 * problem for a template that does not exist. `commandLine: true`
 * records the creation in the audit log as the command line's (an API call
 * is recorded by the service itself).
 *
 * @example
 * ```ts
 * const { key } = await createApiKey(db, { name: 'shop backend', scopes: ['passes'], templateIds: ['7'] });
 * ```
 */
export async function createApiKey(
  db: SqlQueryable,
  options: {
    readonly name: string;
    readonly scopes: readonly ApiKeyScope[];
    readonly templateIds?: readonly string[] | null | undefined;
    readonly key?: string | undefined;
    readonly commandLine?: boolean | undefined;
  },
): Promise<{ readonly key: string; readonly record: ApiKeyRecord }> {
  const key = options.key ?? generateApiKey();
  const templateIds = options.templateIds ?? null;
  if (templateIds !== null) {
    const missing = await missingTemplates(db, templateIds);
    if (missing.length > 0) {
      throw new ServiceProblem(422, 'invalid-body', 'A key can be limited only to templates that exist.', {
        issues: missing.map((id) => ({
          severity: 'error',
          code: 'invalid-value',
          message: `There is no template ${id}`,
          path: `/templateIds/${templateIds.indexOf(id)}`,
        })),
      });
    }
  }
  const record = await insertKey(db, key, options.name, options.scopes, templateIds);
  if (options.commandLine === true) await recordCommand(db, 'key.create', `/v1/keys/${record.id}`, 201);
  return { key, record };
}

/** Stores another `admin` key (given, or made); returns it. A key already stored stays as it is. */
export async function addApiKey(db: SqlDatabase, key: string = generateApiKey()): Promise<string> {
  await db.query(`insert into passmint_api_keys (key_hash, id, name, scopes, prefix) values ($1, $2, 'added key', '{admin}', null) on conflict do nothing`, [
    hashKey(key),
    crypto.randomUUID(),
  ]);
  return key;
}

/** The keys not revoked, oldest first. */
export async function listApiKeys(db: SqlQueryable): Promise<ApiKeyRecord[]> {
  const rows = await db.query<KeyRow>(`select ${COLUMNS} from passmint_api_keys where revoked_at is null order by created_at, id`);
  return rows.map(recordOf);
}

/** An active key's record by id, or `undefined`. */
export async function findApiKey(db: SqlQueryable, id: string): Promise<ApiKeyRecord | undefined> {
  if (!UUID.test(id)) return undefined;
  const rows = await db.query<KeyRow>(`select ${COLUMNS} from passmint_api_keys where id = $1 and revoked_at is null`, [id]);
  return rows[0] === undefined ? undefined : recordOf(rows[0]);
}

/**
 * Revokes a key by id; resolves to its record, or `undefined` when no such
 * key is active. `commandLine: true` records the attempt in the audit log as
 * the command line's.
 */
export async function revokeApiKey(
  db: SqlQueryable,
  id: string,
  options: { readonly commandLine?: boolean | undefined } = {},
): Promise<ApiKeyRecord | undefined> {
  const rows = UUID.test(id)
    ? await db.query<KeyRow>(`update passmint_api_keys set revoked_at = now() where id = $1 and revoked_at is null returning ${COLUMNS}`, [id])
    : [];
  const record = rows[0] === undefined ? undefined : recordOf(rows[0]);
  if (options.commandLine === true) {
    await recordCommand(
      db,
      'key.revoke',
      `/v1/keys/${encodeURIComponent(id)}`,
      record === undefined ? 404 : 204,
      record === undefined ? 'key-not-found' : null,
    );
  }
  return record;
}

/**
 * What a request's API key allows: `ok` with the key's id and scopes;
 * otherwise why not — `missing` (no `Authorization: Bearer`), `invalid` (no
 * such key, or revoked), `forbidden` (a key without the scope needed).
 *
 * @example
 * ```ts
 * const check: KeyCheck = { ok: false, reason: 'forbidden' };
 * ```
 */
export type KeyCheck = ({ readonly ok: true } & Caller) | { readonly ok: false; readonly reason: 'missing' | 'invalid' | 'forbidden' };

/**
 * Who calls a route: the API key (its id, name, scopes, and the templates it
 * is limited to — `null` for every template), and how it came — `'key'`
 * (`Authorization: Bearer`) or `'session'` (a console session, which acts
 * with its key).
 *
 * @example
 * ```ts
 * const caller: Caller = { id: '…', name: 'shop backend', scopes: ['passes'], templateIds: ['7'], via: 'key' };
 * ```
 */
export interface Caller {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly ApiKeyScope[];
  /** The ids of the templates the key is limited to (decimal text); `null`: every template. */
  readonly templateIds: readonly string[] | null;
  readonly via: 'key' | 'session';
}

/**
 * Checks API keys against a copy of the database's key list held in memory.
 *
 * @example
 * ```ts
 * const keys = createApiKeyChecker(db);
 * const check = await keys.check(request, 'passes');
 * ```
 */
export interface ApiKeyChecker {
  /** Whether the request's key grants `scope`. Never rejects once the list was read once (see {@link createApiKeyChecker}). */
  check(request: Request, scope: ApiKeyScope): Promise<KeyCheck>;
  /** Whether the request carries a valid key (any scope: every scope reads). */
  authenticate(request: Request): Promise<boolean>;
  /** Forgets the copy: the next check reads the list again (after this process created or revoked a key). */
  invalidate(): void;
}

interface KnownKey {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly ApiKeyScope[];
  readonly templateIds: readonly string[] | null;
}

/**
 * The service's API key check. The active keys' hashes and scopes are read
 * from the database into memory and read again when the copy is older than
 * `ttlMs` (default 1000): a key created or revoked by another process takes
 * effect within that time, at once in the process that made the change. A
 * request costs no query otherwise (`last used` is written at most once a
 * minute per key, in the background).
 *
 * While the database cannot be reached, the last copy answers (and the list
 * is tried again at most once per `ttlMs`): a wrong key is still a 401, not a
 * 503. Only when the list was never read does `check` reject.
 *
 * `extraKeys` (keys given in code) are `admin` keys.
 *
 * @example
 * ```ts
 * const keys = createApiKeyChecker(db, { ttlMs: 1000 });
 * if (!(await keys.authenticate(request))) return new Response(null, { status: 401 });
 * ```
 */
export function createApiKeyChecker(
  db: SqlDatabase,
  options: { readonly extraKeys?: readonly string[] | undefined; readonly ttlMs?: number | undefined } = {},
): ApiKeyChecker {
  const ttlMs = options.ttlMs ?? 1000;
  const extra = new Map<string, KnownKey>(
    (options.extraKeys ?? []).map((key, index) => [
      hashKey(key),
      { id: `configured-${index + 1}`, name: 'configured key', scopes: ['admin'], templateIds: null },
    ]),
  );
  let known: Map<string, KnownKey> | undefined;
  let readAt = 0;
  let reading: Promise<void> | undefined;
  const touched = new Map<string, number>();

  const read = async (): Promise<void> => {
    try {
      const rows = await activeKeyHashes(db);
      known = new Map([
        ...extra,
        ...rows.map((row): [string, KnownKey] => [row.key_hash, { id: row.id, name: row.name, scopes: row.scopes, templateIds: row.template_ids ?? null }]),
      ]);
    } catch (error) {
      if (known === undefined) throw error;
      // The database is away: keep answering from the last list, and try again after ttlMs.
    } finally {
      readAt = Date.now();
    }
  };

  const current = async (): Promise<Map<string, KnownKey>> => {
    if (known === undefined || Date.now() - readAt >= ttlMs) {
      reading ??= read().finally(() => {
        reading = undefined;
      });
      await reading;
    }
    return known!;
  };

  const touch = (id: string): void => {
    const now = Date.now();
    if (id.startsWith('configured-') || now - (touched.get(id) ?? 0) < 60_000) return;
    touched.set(id, now);
    touchApiKey(db, id).catch(() => undefined);
  };

  const check = async (request: Request, scope: ApiKeyScope): Promise<KeyCheck> => {
    const token = readBearerToken(request.headers.get('authorization'));
    // `Bearer` with something that is no token (a space inside, a non-ASCII character) is a wrong key, not none.
    if (token === undefined) return { ok: false, reason: /^bearer[ \t]+\S/i.test(request.headers.get('authorization') ?? '') ? 'invalid' : 'missing' };
    if (token.length > 512) return { ok: false, reason: 'invalid' };
    const key = (await current()).get(hashKey(token));
    if (key === undefined) return { ok: false, reason: 'invalid' };
    if (!grants(key.scopes, scope)) return { ok: false, reason: 'forbidden' };
    touch(key.id);
    return { ok: true, id: key.id, name: key.name, scopes: key.scopes, templateIds: key.templateIds, via: 'key' };
  };

  return {
    check,
    authenticate: async (request) => (await check(request, 'read')).ok,
    invalidate() {
      readAt = 0;
    },
  };
}
