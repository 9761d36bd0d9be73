// The secret key's check value, and the step that seals (or re-wraps) every stored secret: webhook
// secrets, certificates' private keys, Google's service account.
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceProblem } from '../../http/problem.js';
import { isSealed, readSecretKey, SecretKeyError, sealedKeyId, type SecretBox } from './secret-box.js';
import { PRIVATE_FILE_MODE } from './private-files.js';
import type { SqlDatabase, SqlQueryable } from './sql.js';

const CHECK_PURPOSE = 'passmint secret key check';
const CHECK_TEXT = 'passmint';

/** The purposes sealed values are bound to (a value moved to another column does not open). */
export const SECRET_PURPOSE = {
  webhook: 'webhook-secret',
  privateKey: 'private-key',
  google: 'google-service-account',
} as const;

/** The file a PGlite data folder keeps its secret key in when none is given. */
export const SECRET_KEY_FILE = 'passmint-secret.key';

/**
 * The key of a PGlite data folder: the one in `<folder>/passmint-secret.key`,
 * or a new one written there (0600); `made` says which.
 *
 * @example
 * ```ts
 * const { key, made } = folderSecretKey('./passmint-data');
 * ```
 */
export function folderSecretKey(dataDir: string): { readonly key: Uint8Array; readonly made: boolean; readonly path: string } {
  const path = join(dataDir, SECRET_KEY_FILE);
  if (existsSync(path)) return { key: readSecretKey(readFileSync(path, 'utf8')), made: false, path };
  const key = new Uint8Array(randomBytes(32));
  const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, `${Buffer.from(key).toString('base64')}\n`);
  } finally {
    closeSync(fd);
  }
  return { key, made: true, path };
}

/**
 * Checks the key against the database before the service stores or reads a
 * secret: the first start with a key writes its check value; a later start
 * with another key, or with none while sealed secrets are stored, is refused
 * with a {@link SecretKeyError} saying what to do. With a key, webhook
 * secrets kept in clear from before are sealed now, in one transaction.
 *
 * @example
 * ```ts
 * await prepareSecrets(db, createSecretBox(key));
 * ```
 */
export async function prepareSecrets(db: SqlDatabase, box: SecretBox | undefined): Promise<void> {
  await db.transaction(async (tx) => {
    const [check] = await tx.query<{ key_id: string; check_value: string }>('select key_id, check_value from passmint_secret_key_check where id = 1');
    if (box === undefined) {
      if (check !== undefined) {
        throw new SecretKeyError(
          `This database holds secrets sealed under secret key ${check.key_id}: start with that key (PASSMINT_SECRET_KEY or --secret-key-file).`,
        );
      }
      return;
    }
    // The first key wins; a process that started at the same moment with another key reads the winner's and is refused.
    const held =
      check ??
      (
        await tx.query<{ key_id: string; check_value: string }>(
          `insert into passmint_secret_key_check (id, key_id, check_value) values (1, $1, $2)
           on conflict (id) do update set id = passmint_secret_key_check.id returning key_id, check_value`,
          [box.keyId, box.seal(CHECK_TEXT, CHECK_PURPOSE)],
        )
      )[0]!;
    if (held.key_id !== box.keyId || !opens(box, held.check_value)) {
      throw new SecretKeyError(
        `The secret key given (${box.keyId}) is not the one this database's secrets are sealed under (${held.key_id}): start with that key, or rotate to a new one with \`passmint serve secrets rotate\`.`,
      );
    }
    const clear = await tx.query<{ id: string; secret: string }>(`select id, secret from passmint_webhooks where secret not like 'pm1:%' for update`);
    for (const row of clear) {
      await tx.query('update passmint_webhooks set secret = $2 where id = $1', [row.id, box.seal(row.secret, SECRET_PURPOSE.webhook)]);
    }
  });
}

function opens(box: SecretBox, sealed: string): boolean {
  try {
    return box.open(sealed, CHECK_PURPOSE) === CHECK_TEXT;
  } catch {
    return false;
  }
}

/** How many secrets {@link rotateSecrets} re-wrapped, by kind. */
export interface RotatedSecrets {
  readonly webhooks: number;
  readonly certificates: number;
  readonly google: number;
}

/**
 * Re-wraps every stored secret's data key under `next` (the data itself is
 * not re-encrypted) and replaces the check value, in one transaction: after
 * it, only `next` opens them. Webhook secrets still in clear are sealed too.
 *
 * @example
 * ```ts
 * await rotateSecrets(db, createSecretBox(oldKey), createSecretBox(newKey));
 * ```
 */
export async function rotateSecrets(db: SqlDatabase, current: SecretBox, next: SecretBox): Promise<RotatedSecrets> {
  await prepareSecrets(db, current);
  return db.transaction(async (tx) => {
    const rewrap = (value: string, purpose: string): string => (isSealed(value) ? current.rewrap(value, next) : next.seal(value, purpose));
    const webhooks = await rewrapColumn(tx, 'passmint_webhooks', 'id', 'secret', (value) => rewrap(value, SECRET_PURPOSE.webhook));
    const certificates = await rewrapColumn(tx, 'passmint_certificates', 'id', 'private_key', (value) => rewrap(value, SECRET_PURPOSE.privateKey));
    const google = await rewrapColumn(tx, 'passmint_google_credentials', 'id', 'service_account', (value) => rewrap(value, SECRET_PURPOSE.google));
    await tx.query('update passmint_secret_key_check set key_id = $1, check_value = $2 where id = 1', [next.keyId, next.seal(CHECK_TEXT, CHECK_PURPOSE)]);
    return { webhooks, certificates, google };
  });
}

// The tables and columns are this module's constants, never input.
async function rewrapColumn(tx: SqlQueryable, table: string, id: string, column: string, rewrap: (value: string) => string): Promise<number> {
  const rows = await tx.query<{ id: string; value: string }>(`select ${id}::text as id, ${column} as value from ${table} for update`);
  for (const row of rows) {
    const value = rewrap(row.value);
    if (value !== row.value) await tx.query(`update ${table} set ${column} = $2 where ${id}::text = $1`, [row.id, value]);
  }
  return rows.length;
}

/**
 * Opens a webhook secret as stored: sealed, or kept in clear by a version
 * before secrets were sealed (the first start with a key seals those; until
 * then, their deliveries keep working).
 *
 * @example
 * ```ts
 * const secret = openWebhookSecret(box, row.secret);
 * ```
 */
export function openWebhookSecret(box: SecretBox | undefined, stored: string): string {
  if (!isSealed(stored)) return stored;
  if (box === undefined) throw new SecretKeyError(`A webhook secret is sealed under key ${sealedKeyId(stored)}, and the service has no secret key.`);
  return box.open(stored, SECRET_PURPOSE.webhook);
}

/**
 * {@link openWebhookSecret} with the last 1,000 secrets opened kept in
 * memory (by their sealed text): a delivery costs a map look-up, not two
 * AES-GCM decryptions (about 10 µs).
 *
 * @example
 * ```ts
 * const openSecret = webhookSecretOpener(box);
 * const secret = openSecret(row.secret);
 * ```
 */
export function webhookSecretOpener(box: SecretBox | undefined): (stored: string) => string {
  const opened = new Map<string, string>();
  return (stored) => {
    let secret = opened.get(stored);
    if (secret === undefined) {
      secret = openWebhookSecret(box, stored);
      if (opened.size >= 1000) opened.delete(opened.keys().next().value!);
      opened.set(stored, secret);
    }
    return secret;
  };
}

/**
 * The box to seal a secret with, or a 409 `secret-key-missing` saying how to
 * give the service one: a service without a secret key (PostgreSQL without
 * `PASSMINT_SECRET_KEY`) stores no secret, in clear or otherwise. `what`
 * names the secret in the message.
 *
 * @example
 * ```ts
 * const sealed = sealingBox(context.secretBox, 'private keys').seal(pem, SECRET_PURPOSE.privateKey);
 * ```
 */
export function sealingBox(box: SecretBox | undefined, what: string): SecretBox {
  if (box !== undefined) return box;
  throw new ServiceProblem(
    409,
    'secret-key-missing',
    `The service has no secret key to seal ${what} with, so nothing was stored: start it with PASSMINT_SECRET_KEY (32 random bytes in base64: \`openssl rand -base64 32\`) or --secret-key-file.`,
  );
}

/**
 * A webhook secret sealed under the secret key, as it is stored; a 409
 * `secret-key-missing` on a service without one (see {@link sealingBox}).
 *
 * @example
 * ```ts
 * await insertWebhook(db, url, sealWebhookSecret(box, secret));
 * ```
 */
export function sealWebhookSecret(box: SecretBox | undefined, secret: string): string {
  return sealingBox(box, 'webhook secrets').seal(secret, SECRET_PURPOSE.webhook);
}
