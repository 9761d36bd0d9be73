// Google Wallet's uploaded service account and issuer id: one row, the account's JSON sealed (secret-box.ts).
import { readGoogleCredentials } from '../../google/credentials.js';
import type { GoogleCredentials } from '../../google/types.js';
import type { SecretBox } from './secret-box.js';
import { SECRET_PURPOSE } from './secrets.js';
import type { SqlQueryable } from './sql.js';

/**
 * The Google credentials stored: the issuer id and the account's e-mail in
 * clear, the service account's JSON (its private key) sealed.
 *
 * @example
 * ```ts
 * const stored = await findGoogleCredentials(db);
 * if (stored) console.log(stored.issuerId, stored.clientEmail);
 * ```
 */
export interface StoredGoogleCredentials {
  readonly issuerId: string;
  readonly clientEmail: string;
  readonly sealedServiceAccount: string;
  readonly updated: Date;
}

/** The stored Google credentials, or `undefined`. */
export async function findGoogleCredentials(sql: SqlQueryable): Promise<StoredGoogleCredentials | undefined> {
  const [row] = await sql.query<{ issuer_id: string; client_email: string; service_account: string; updated_at: Date }>(
    'select issuer_id, client_email, service_account, updated_at from passmint_google_credentials where id = 1',
  );
  return row === undefined
    ? undefined
    : { issuerId: row.issuer_id, clientEmail: row.client_email, sealedServiceAccount: row.service_account, updated: row.updated_at };
}

/** Stores (or replaces) the Google credentials. */
export async function putGoogleCredentials(sql: SqlQueryable, credentials: Omit<StoredGoogleCredentials, 'updated'>): Promise<StoredGoogleCredentials> {
  const [row] = await sql.query<{ updated_at: Date }>(
    `insert into passmint_google_credentials (id, issuer_id, client_email, service_account) values (1, $1, $2, $3)
     on conflict (id) do update set issuer_id = excluded.issuer_id, client_email = excluded.client_email, service_account = excluded.service_account, updated_at = now()
     returning updated_at`,
    [credentials.issuerId, credentials.clientEmail, credentials.sealedServiceAccount],
  );
  return { ...credentials, updated: row!.updated_at };
}

/** Deletes the stored Google credentials; whether there were any. */
export async function deleteGoogleCredentials(sql: SqlQueryable): Promise<boolean> {
  return (await sql.query('delete from passmint_google_credentials where id = 1 returning id')).length > 0;
}

/**
 * The uploaded credentials, opened: what `createServer` uses instead of the
 * start options' (`undefined` when none were uploaded).
 *
 * @example
 * ```ts
 * const uploaded = await openGoogleCredentials(db, box);
 * ```
 */
export async function openGoogleCredentials(
  sql: SqlQueryable,
  box: SecretBox | undefined,
): Promise<{ readonly credentials: GoogleCredentials; readonly issuerId: string } | undefined> {
  const stored = await findGoogleCredentials(sql);
  if (stored === undefined || box === undefined) return undefined;
  return { credentials: readGoogleCredentials(box.open(stored.sealedServiceAccount, SECRET_PURPOSE.google)), issuerId: stored.issuerId };
}
