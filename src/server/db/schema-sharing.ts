// The migrations of share pages, bundles and messages to holders, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const SHARING_MIGRATIONS: readonly string[] = [
  // Share pages (/p/{share id}), bundles, messages to holders.
  `
  -- 128 random bits, base64url (22 characters): bytes of two random UUIDs, leaving out their version and variant bits.
  create function passmint_share_id() returns text language sql volatile as $$
    select rtrim(translate(encode(
      substring(a from 1 for 6) || substring(a from 10 for 7) || substring(b from 1 for 3), 'base64'), '+/', '-_'), '=')
      from (select decode(replace(gen_random_uuid()::text, '-', ''), 'hex') as a,
                   decode(replace(gen_random_uuid()::text, '-', ''), 'hex') as b) u
  $$;
  -- Every pass's public page: each existing pass gets its own id (a volatile default is computed per row).
  alter table passmint_passes add column share_id text not null default passmint_share_id();
  create unique index passmint_passes_share on passmint_passes (share_id);

  -- Several passes of one order behind one page: their keys, in order.
  create table passmint_bundles (
    id bigserial primary key,
    share_id text not null unique default passmint_share_id(),
    passes json not null,
    created_at timestamptz not null default now()
  );

  -- Messages to holders: one row per POST /v1/templates/{id}/messages, its job, and its cursor.
  create table passmint_messages (
    id bigserial primary key,
    public_id uuid not null unique default gen_random_uuid(),
    template_id int not null,
    job_id bigint not null unique,
    header text not null,
    body text not null,
    -- The search filters it was sent with (GET /v1/passes's), as given.
    filter json not null,
    -- The field it is written into, and the placeholders of its value and (when one) its label.
    field_key text not null,
    value_placeholder text not null,
    label_placeholder text,
    -- The passes it reaches: those matching when it was sent (seq up to max_seq); last_seq: the job's keyset cursor.
    max_seq bigint not null,
    last_seq bigint not null default 0,
    passes int not null,
    -- Of those, how many Google would notify when it was sent (the others get it as TEXT: the three a day were used).
    google_notify int not null default 0,
    created_at timestamptz not null default now()
  );
  create index passmint_messages_template on passmint_messages (template_id, id);

  -- A holder message owed to a Google object: queued by the job with the pass's change, sent by the Google worker
  -- (TEXT_AND_NOTIFY while the object had fewer than three notifications in 24 hours: sent; TEXT after: text).
  alter table passmint_google_messages drop constraint passmint_google_messages_status_check;
  alter table passmint_google_messages add constraint passmint_google_messages_status_check
    check (status in ('sent', 'over-limit', 'queued', 'text'));
  alter table passmint_google_messages add column field_key text;
  create index passmint_google_messages_queued on passmint_google_messages (object_id) where status = 'queued';
  -- The objects that had their three notifications in the last 24 hours (a message's 202 counts them): the day's rows only.
  create index passmint_google_messages_sent on passmint_google_messages (sent_at) where status = 'sent';
  `,
];
