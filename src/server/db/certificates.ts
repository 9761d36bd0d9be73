// Pass Type ID certificates as rows: one per pass type, the private key sealed (secret-box.ts).
import type { SqlQueryable } from './sql.js';

/**
 * A certificate as stored: everything but its private key, which stays
 * sealed in the row and is read only by {@link sealedPrivateKey}.
 *
 * @example
 * ```ts
 * const [first] = await listCertificates(db);
 * first?.notAfter; // Date
 * ```
 */
export interface CertificateRecord {
  readonly id: string;
  readonly passTypeIdentifier: string;
  readonly teamIdentifier: string;
  /** DER. */
  readonly certificate: Uint8Array;
  /** The WWDR intermediate, DER. */
  readonly wwdr: Uint8Array;
  /** SHA-256 of the certificate's DER, hex. */
  readonly fingerprint: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly wwdrNotAfter: Date;
  readonly created: Date;
}

/** What {@link putCertificate} stores. */
export interface NewCertificate extends Omit<CertificateRecord, 'id' | 'created'> {
  /** The private key sealed under the secret key. */
  readonly sealedPrivateKey: string;
}

interface CertificateRow {
  id: string;
  pass_type_identifier: string;
  team_identifier: string;
  certificate: Uint8Array;
  wwdr: Uint8Array;
  fingerprint: string;
  not_before: Date;
  not_after: Date;
  wwdr_not_after: Date;
  created_at: Date;
}

const columns = 'id, pass_type_identifier, team_identifier, certificate, wwdr, fingerprint, not_before, not_after, wwdr_not_after, created_at';

const toRecord = (row: CertificateRow): CertificateRecord => ({
  id: row.id,
  passTypeIdentifier: row.pass_type_identifier,
  teamIdentifier: row.team_identifier,
  certificate: row.certificate,
  wwdr: row.wwdr,
  fingerprint: row.fingerprint,
  notBefore: row.not_before,
  notAfter: row.not_after,
  wwdrNotAfter: row.wwdr_not_after,
  created: row.created_at,
});

const bump = (sql: SqlQueryable): Promise<unknown> => sql.query(`update passmint_counters set value = value + 1 where name = 'certificates'`);

/**
 * Every certificate, by pass type (one per pass type: a handful of rows).
 *
 * @example
 * ```ts
 * for (const certificate of await listCertificates(db)) console.log(certificate.passTypeIdentifier, certificate.notAfter);
 * ```
 */
export async function listCertificates(sql: SqlQueryable): Promise<CertificateRecord[]> {
  const rows = await sql.query<CertificateRow>(`select ${columns} from passmint_certificates order by pass_type_identifier limit 10000`);
  return rows.map(toRecord);
}

/** One certificate by id, or `undefined`. */
export async function findCertificate(sql: SqlQueryable, id: string): Promise<CertificateRecord | undefined> {
  const rows = await sql.query<CertificateRow>(`select ${columns} from passmint_certificates where id = $1`, [id]);
  return rows[0] === undefined ? undefined : toRecord(rows[0]);
}

/** A certificate's sealed private key, or `undefined` when it is gone. */
export async function sealedPrivateKey(sql: SqlQueryable, id: string): Promise<string | undefined> {
  const rows = await sql.query<{ private_key: string }>('select private_key from passmint_certificates where id = $1', [id]);
  return rows[0]?.private_key;
}

/**
 * Stores a certificate for its pass type, replacing the one there of the
 * same team (its expiry warnings go with it); `{ conflict }` naming the team
 * of the one there when it is another team's, and nothing changes. Run in a
 * transaction: the pass type's row is locked while it is decided.
 *
 * @example
 * ```ts
 * const outcome = await db.transaction((tx) => putCertificate(tx, certificate));
 * if ('conflict' in outcome) refuse(outcome.conflict);
 * ```
 */
export async function putCertificate(
  tx: SqlQueryable,
  certificate: NewCertificate,
): Promise<{ readonly stored: CertificateRecord; readonly replaced: string | undefined } | { readonly conflict: string }> {
  const [held] = await tx.query<{ id: string; team_identifier: string }>(
    'select id, team_identifier from passmint_certificates where pass_type_identifier = $1 for update',
    [certificate.passTypeIdentifier],
  );
  if (held !== undefined && held.team_identifier !== certificate.teamIdentifier) return { conflict: held.team_identifier };
  if (held !== undefined) await tx.query('delete from passmint_certificates where id = $1', [held.id]);
  const rows = await tx.query<CertificateRow>(
    `insert into passmint_certificates (id, pass_type_identifier, team_identifier, certificate, wwdr, private_key, fingerprint, not_before, not_after, wwdr_not_after)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ${columns}`,
    [
      crypto.randomUUID(),
      certificate.passTypeIdentifier,
      certificate.teamIdentifier,
      certificate.certificate,
      certificate.wwdr,
      certificate.sealedPrivateKey,
      certificate.fingerprint,
      certificate.notBefore,
      certificate.notAfter,
      certificate.wwdrNotAfter,
    ],
  );
  await bump(tx);
  return { stored: toRecord(rows[0]!), replaced: held?.id };
}

/** Deletes a certificate; whether there was one. */
export async function deleteCertificate(tx: SqlQueryable, id: string): Promise<boolean> {
  const rows = await tx.query<{ id: string }>('delete from passmint_certificates where id = $1 returning id', [id]);
  if (rows.length > 0) await bump(tx);
  return rows.length > 0;
}

/**
 * The version of the certificates: moves with every upload, replacement and
 * deletion, in every process (one primary-key read).
 *
 * @example
 * ```ts
 * if ((await certificatesVersion(db)) !== cached) reload();
 * ```
 */
export async function certificatesVersion(sql: SqlQueryable): Promise<number> {
  const [row] = await sql.query<{ value: number }>(`select value from passmint_counters where name = 'certificates'`);
  return row?.value ?? 0;
}

/**
 * Records that the warning `thresholdDays` was sent for a certificate (by
 * its fingerprint); `false` when some process recorded it already (then send
 * nothing). In the transaction that adds the event: the two happen together
 * or not at all.
 *
 * @example
 * ```ts
 * if (await claimExpiryWarning(tx, certificate.fingerprint, 30)) await addEvents(tx, [event]);
 * ```
 */
export async function claimExpiryWarning(tx: SqlQueryable, fingerprint: string, thresholdDays: number): Promise<boolean> {
  const rows = await tx.query<{ threshold_days: number }>(
    `insert into passmint_certificate_warnings (fingerprint, threshold_days) values ($1, $2)
     on conflict do nothing returning threshold_days`,
    [fingerprint, thresholdDays],
  );
  return rows.length > 0;
}
