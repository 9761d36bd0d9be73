// The migrations of certificates, secrets at rest and Google credentials, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const IDENTITY_MIGRATIONS: readonly string[] = [
  `
  -- One row: a value sealed under the secret key, so a start with another key is refused before it stores anything.
  create table passmint_secret_key_check (
    id integer primary key check (id = 1),
    key_id text not null,
    check_value text not null,
    created_at timestamptz not null default now()
  );

  -- A Pass Type ID certificate per pass type; its private key sealed (secret-box.ts), never in clear.
  create table passmint_certificates (
    id uuid primary key,
    pass_type_identifier text not null unique,
    team_identifier text not null,
    certificate bytea not null,
    wwdr bytea not null,
    private_key text not null,
    fingerprint text not null,
    not_before timestamptz not null,
    not_after timestamptz not null,
    wwdr_not_after timestamptz not null,
    created_at timestamptz not null default now()
  );
  -- Bumped by every change to passmint_certificates: processes re-read their signers when it moves.
  insert into passmint_counters (name, value) values ('certificates', 0) on conflict (name) do nothing;

  -- A certificate.expiring event sent for a certificate (by its SHA-256: uploaded, or given at start) and a threshold
  -- (30, 7, 1 days): once, whichever process sees it first. A few rows a year per pass type.
  create table passmint_certificate_warnings (
    fingerprint text not null,
    threshold_days integer not null,
    created_at timestamptz not null default now(),
    primary key (fingerprint, threshold_days)
  );

  -- Google Wallet's service account and issuer id, uploaded; the account's JSON (its private key) sealed.
  create table passmint_google_credentials (
    id integer primary key check (id = 1),
    issuer_id text not null,
    client_email text not null,
    service_account text not null,
    updated_at timestamptz not null default now()
  );
  `,
];
