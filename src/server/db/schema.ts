import { AUDIT_MIGRATIONS } from './schema-audit.js';
import { CONSOLE_MIGRATIONS } from './schema-console.js';
import { IDENTITY_MIGRATIONS } from './schema-identities.js';
import { PROGRAM_MIGRATIONS } from './schema-programs.js';
import { SHARING_MIGRATIONS } from './schema-sharing.js';
import type { SqlDatabase } from './sql.js';

/**
 * The schema, one migration per entry, applied in order and never edited
 * once released (a change is a new entry). Both engines run the same text.
 */
const MIGRATIONS: readonly string[] = [
  `
  create table passmint_api_keys (
    key_hash text primary key,
    created_at timestamptz not null default now()
  );

  -- Single-row counters taken inside a transaction: the row lock makes the
  -- numbers visible in commit order (events, wallet update tags).
  create table passmint_counters (
    name text primary key,
    value bigint not null
  );
  insert into passmint_counters (name, value) values ('event', 0), ('tag', 0);

  create table passmint_templates (
    id serial primary key,
    template json not null,
    version integer not null default 1,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );

  create table passmint_template_files (
    template_id integer not null references passmint_templates (id) on delete cascade,
    path text not null,
    bytes bytea not null,
    primary key (template_id, path)
  );

  create table passmint_passes (
    pass_type_identifier text not null,
    serial_number text not null,
    template_id integer not null references passmint_templates (id) on delete restrict,
    pass_values json not null,
    pass json not null,
    version integer not null default 1,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    seq bigserial not null unique,
    primary key (pass_type_identifier, serial_number)
  );

  create table passmint_webhooks (
    id uuid primary key,
    url text not null,
    secret text not null,
    state text not null check (state in ('pending', 'enabled', 'disabled')),
    state_reason text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    seq bigserial not null unique
  );

  create table passmint_events (
    seq bigint primary key,
    id uuid not null unique,
    type text not null,
    body text not null,
    created_at timestamptz not null default now()
  );

  create table passmint_deliveries (
    id bigserial primary key,
    event_seq bigint not null references passmint_events (seq) on delete cascade,
    webhook_id uuid not null references passmint_webhooks (id) on delete cascade,
    status text not null check (status in ('pending', 'delivered', 'failed', 'cancelled')),
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    first_attempt_at timestamptz,
    locked_until timestamptz,
    lease uuid,
    last_status integer,
    last_error text,
    delivered_at timestamptz,
    unique (event_seq, webhook_id)
  );
  create index passmint_deliveries_due on passmint_deliveries (next_attempt_at) where status = 'pending';
  create index passmint_deliveries_order on passmint_deliveries (webhook_id, event_seq) where status = 'pending';
  create index passmint_deliveries_webhook on passmint_deliveries (webhook_id, id);

  create table passmint_attempts (
    id bigserial primary key,
    delivery_id bigint not null references passmint_deliveries (id) on delete cascade,
    attempted_at timestamptz not null default now(),
    outcome text not null,
    status integer,
    error text,
    duration_ms integer not null
  );
  create index passmint_attempts_delivery on passmint_attempts (delivery_id, id);

  create table passmint_wallet_registrations (
    device_library_identifier text not null,
    pass_type_identifier text not null,
    serial_number text not null,
    push_token text not null,
    created_at timestamptz not null default now(),
    primary key (device_library_identifier, pass_type_identifier, serial_number)
  );
  create index passmint_wallet_registrations_pass on passmint_wallet_registrations (pass_type_identifier, serial_number);
  create index passmint_wallet_registrations_token on passmint_wallet_registrations (push_token);

  create table passmint_wallet_tags (
    pass_type_identifier text not null,
    serial_number text not null,
    tag bigint not null,
    primary key (pass_type_identifier, serial_number)
  );

  create table passmint_pushes (
    id bigserial primary key,
    push_token text not null,
    topic text not null,
    status text not null check (status in ('pending', 'sent', 'gone', 'failed')),
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    locked_until timestamptz,
    lease uuid,
    last_error text
  );
  create index passmint_pushes_due on passmint_pushes (next_attempt_at) where status = 'pending';
  `,
  // API keys with a name, scopes and an id to revoke them by; the keys made before are admin keys.
  `
  alter table passmint_api_keys
    add column id uuid not null default gen_random_uuid(),
    add column name text not null default 'API key',
    add column scopes text[] not null default '{admin}',
    add column prefix text,
    add column last_used_at timestamptz,
    add column revoked_at timestamptz;
  create unique index passmint_api_keys_id on passmint_api_keys (id);
  `,
  // Google Wallet: one sync job per class (template) and per object (pass), the objects as last
  // sent (for ids and change messages), the messages sent (Google's 3 a day), callback nonces.
  `
  create table passmint_google_jobs (
    id bigserial primary key,
    kind text not null check (kind in ('class', 'object')),
    template_id integer,
    pass_type_identifier text,
    serial_number text,
    -- Each change bumps wanted; a sync that read the state at wanted = W records done = W.
    wanted bigint not null default 1,
    done bigint not null default 0,
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    locked_until timestamptz,
    lease uuid,
    claimed_by text,
    last_error text,
    updated_at timestamptz not null default now()
  );
  create unique index passmint_google_jobs_class on passmint_google_jobs (template_id) where kind = 'class';
  create unique index passmint_google_jobs_object on passmint_google_jobs (pass_type_identifier, serial_number) where kind = 'object';
  create index passmint_google_jobs_due on passmint_google_jobs (next_attempt_at) where wanted > done;

  create table passmint_google_classes (
    template_id integer primary key,
    class_id text not null,
    template_version integer not null,
    synced_at timestamptz not null default now()
  );

  create table passmint_google_objects (
    pass_type_identifier text not null,
    serial_number text not null,
    object_id text not null unique,
    class_id text not null,
    resource text not null,
    -- The pass as last sent to Google (null: the id is known from a save link, nothing sent yet).
    pass json,
    synced_at timestamptz,
    primary key (pass_type_identifier, serial_number)
  );

  create table passmint_google_messages (
    id bigserial primary key,
    -- The id Google gets: one per field change, so a message resent after a crash is the same message.
    message_id text not null unique,
    object_id text not null,
    header text,
    body text not null,
    -- sent: added with TEXT_AND_NOTIFY; over-limit: not sent (3 notifications in 24 hours already).
    status text not null check (status in ('sent', 'over-limit')),
    sent_at timestamptz not null default now()
  );
  create index passmint_google_messages_object on passmint_google_messages (object_id, sent_at);

  create table passmint_google_nonces (
    nonce text primary key,
    expires_at timestamptz not null
  );
  create index passmint_google_nonces_expiry on passmint_google_nonces (expires_at);
  `,
  // Who holds a claim (the claiming process's instanceId), so a start can free the claims of processes that are gone.
  `
  alter table passmint_deliveries add column claimed_by text;
  alter table passmint_pushes add column claimed_by text;
  `,
  // Google Wallet: the class and object bodies as last sent, so a patch can clear what is gone (null).
  `
  alter table passmint_google_classes add column sent json;
  alter table passmint_google_objects add column sent json;
  `,
  // Search, webhook event filters, Idempotency-Key (issue 27).
  `
  -- GET /v1/passes?templateId=: a template's passes in seq order (the page's keyset), without reading the others.
  create index passmint_passes_template on passmint_passes (template_id, seq);
  -- ?values.NAME=VALUE: containment (@>) on the values as jsonb; jsonb_path_ops indexes each path-and-value pair
  -- (measured at 200,000 passes: a bitmap scan of this index; a table of (template, name, value, pass) would cost every write a row per placeholder).
  -- Values holding NUL or a lone surrogate (stored as json, which keeps the escape) have no jsonb: the function
  -- gives them null (not searchable by value) instead of failing every insert and search that meets them.
  create function passmint_values_jsonb(v json) returns jsonb language sql immutable parallel safe
    as $$ select case when v::text ~* '\\\\u(0000|d[89a-f])' then null else v::jsonb end $$;
  create index passmint_passes_values on passmint_passes using gin (passmint_values_jsonb(pass_values) jsonb_path_ops);
  create index passmint_passes_serial on passmint_passes (serial_number);
  create index passmint_passes_updated on passmint_passes (updated_at);

  -- The event types a registration receives; null: every type.
  alter table passmint_webhooks add column events text[];

  -- Idempotency-Key: the first answer to a POST, per API key and key, replayed for 24 hours.
  create table passmint_idempotency_keys (
    api_key_id text not null,
    idempotency_key text not null,
    state text not null check (state in ('running', 'done')),
    -- The running request's claim (extended while it runs; a claim left by a killed process runs out).
    lease uuid,
    locked_until timestamptz,
    -- SHA-256 of method, path with query, and body: the same key with another request is refused.
    request_hash text,
    status integer,
    headers json,
    -- null when the answer was larger than the service keeps (body_kept false).
    body bytea,
    body_kept boolean,
    created_at timestamptz not null default now(),
    primary key (api_key_id, idempotency_key)
  );
  create index passmint_idempotency_keys_created on passmint_idempotency_keys (created_at);
  `,
  // Jobs (issue 27): long work run as queued work with a state, counts and a results stream — imports,
  // and the kinds to come (publish, messages, bulk voids). `id` is the queue's; `public_id` the API's.
  `
  create table passmint_jobs (
    id bigserial primary key,
    public_id uuid not null unique,
    kind text not null,
    -- uploading: its input is still arriving (never shown, never claimed; a start that died leaves it to retention).
    state text not null check (state in ('uploading', 'queued', 'running', 'succeeded', 'failed', 'cancelled')),
    template_id integer,
    -- The kind's own parameters (an import's mode, format, columns and origin).
    params json not null default '{}',
    total_rows integer not null default 0,
    -- Records done: the cursor the next batch starts after, committed with the batch's changes.
    done integer not null default 0,
    created_count integer not null default 0,
    updated_count integer not null default 0,
    unchanged_count integer not null default 0,
    failed_count integer not null default 0,
    error text,
    attempts integer not null default 0,
    created_at timestamptz not null default now(),
    started_at timestamptz,
    finished_at timestamptz,
    next_attempt_at timestamptz not null default now(),
    locked_until timestamptz,
    lease uuid,
    claimed_by text
  );
  create index passmint_jobs_due on passmint_jobs (next_attempt_at) where state in ('queued', 'running');
  create index passmint_jobs_finished on passmint_jobs (finished_at) where finished_at is not null;
  create index passmint_jobs_uploading on passmint_jobs (created_at) where state = 'uploading';

  -- A job's input as uploaded, in chunks read back one at a time (stored before the 202; deleted when the job ends).
  create table passmint_job_inputs (
    job_id bigint not null references passmint_jobs (id) on delete cascade,
    n integer not null,
    bytes bytea not null,
    primary key (job_id, n)
  );

  -- One line of a job's results per record (n: the record's number, from 1), written with the record's batch.
  create table passmint_job_results (
    job_id bigint not null references passmint_jobs (id) on delete cascade,
    n integer not null,
    status text not null,
    serial_number text,
    problem text,
    primary key (job_id, n)
  );
  `,
  // Cost flat with the data (issue 28): counts kept as the rows change (/metrics reads them instead of
  // count(*) over the tables), indexes for retention, and storage settings for the queue tables.
  `
  -- Rows by state, changed in the transactions that change the rows (statement triggers below). One row
  -- per name and backend (shard = pg_backend_pid()): no two open transactions ever update the same row,
  -- so counting never makes one writer wait for another; a scrape adds a name's rows up, and folds the
  -- rows of backends that are gone into shard 0 (see db/figures.ts).
  create table passmint_row_counts (
    name text not null,
    shard integer not null,
    n bigint not null,
    primary key (name, shard)
  ) with (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);

  -- The counting trigger of a table (TG_ARGV[0]: deliveries, pushes, google), once per statement, over the
  -- statement's rows before (old_rows) and after (new_rows): a claim or a retry, which changes no state, nets 0.
  create function passmint_count_rows() returns trigger language plpgsql as $$
  declare
    added text[] := '{}';
    removed text[] := '{}';
  begin
    if TG_OP = 'TRUNCATE' then
      delete from passmint_row_counts where name like TG_ARGV[0] || ':%';
      return null;
    end if;
    if TG_ARGV[0] = 'google' then
      -- Owed: a change not yet sent (wanted > done); retrying: owed, and the last attempt failed.
      if TG_OP <> 'DELETE' then
        added := array(select 'google:owed' from new_rows where wanted > done union all select 'google:retrying' from new_rows where wanted > done and attempts > 0);
      end if;
      if TG_OP <> 'INSERT' then
        removed := array(select 'google:owed' from old_rows where wanted > done union all select 'google:retrying' from old_rows where wanted > done and attempts > 0);
      end if;
    elsif TG_ARGV[0] = 'deliveries' then
      -- By status; and parked: pending, waiting for an earlier delivery of its pass (next_attempt_at infinity).
      if TG_OP <> 'DELETE' then
        added := array(select 'deliveries:' || status from new_rows union all
                       select 'deliveries:parked' from new_rows where status = 'pending' and next_attempt_at = 'infinity');
      end if;
      if TG_OP <> 'INSERT' then
        removed := array(select 'deliveries:' || status from old_rows union all
                         select 'deliveries:parked' from old_rows where status = 'pending' and next_attempt_at = 'infinity');
      end if;
    else
      if TG_OP <> 'DELETE' then added := array(select TG_ARGV[0] || ':' || status from new_rows); end if;
      if TG_OP <> 'INSERT' then removed := array(select TG_ARGV[0] || ':' || status from old_rows); end if;
    end if;
    -- Nothing changed state (a claim, a lease extended, a retry scheduled): nothing to write.
    if added = removed then
      return null;
    end if;
    -- +1 per name added, -1 per name removed, on this backend's rows (a name that nets 0: nothing written).
    insert into passmint_row_counts as c (name, shard, n)
    select x.name, pg_backend_pid(), sum(x.d) from (
      select a.name, 1 as d from unnest(added) as a(name)
      union all
      select r.name, -1 from unnest(removed) as r(name)) x
    group by x.name having sum(x.d) <> 0
    order by x.name
    on conflict (name, shard) do update set n = c.n + excluded.n;
    return null;
  end
  $$;

  create trigger passmint_deliveries_count_insert after insert on passmint_deliveries
    referencing new table as new_rows for each statement execute function passmint_count_rows('deliveries');
  create trigger passmint_deliveries_count_update after update on passmint_deliveries
    referencing old table as old_rows new table as new_rows for each statement execute function passmint_count_rows('deliveries');
  create trigger passmint_deliveries_count_delete after delete on passmint_deliveries
    referencing old table as old_rows for each statement execute function passmint_count_rows('deliveries');
  create trigger passmint_deliveries_count_truncate after truncate on passmint_deliveries
    for each statement execute function passmint_count_rows('deliveries');
  create trigger passmint_pushes_count_insert after insert on passmint_pushes
    referencing new table as new_rows for each statement execute function passmint_count_rows('pushes');
  create trigger passmint_pushes_count_update after update on passmint_pushes
    referencing old table as old_rows new table as new_rows for each statement execute function passmint_count_rows('pushes');
  create trigger passmint_pushes_count_delete after delete on passmint_pushes
    referencing old table as old_rows for each statement execute function passmint_count_rows('pushes');
  create trigger passmint_pushes_count_truncate after truncate on passmint_pushes
    for each statement execute function passmint_count_rows('pushes');
  create trigger passmint_google_jobs_count_insert after insert on passmint_google_jobs
    referencing new table as new_rows for each statement execute function passmint_count_rows('google');
  create trigger passmint_google_jobs_count_update after update on passmint_google_jobs
    referencing old table as old_rows new table as new_rows for each statement execute function passmint_count_rows('google');
  create trigger passmint_google_jobs_count_delete after delete on passmint_google_jobs
    referencing old table as old_rows for each statement execute function passmint_count_rows('google');
  create trigger passmint_google_jobs_count_truncate after truncate on passmint_google_jobs
    for each statement execute function passmint_count_rows('google');

  -- The rows as they are now (the triggers above hold the tables until this migration commits).
  insert into passmint_row_counts (name, shard, n)
  select 'deliveries:' || status, 0, count(*) from passmint_deliveries group by status
  union all select 'deliveries:parked', 0, count(*) from passmint_deliveries where status = 'pending' and next_attempt_at = 'infinity' having count(*) > 0
  union all select 'pushes:' || status, 0, count(*) from passmint_pushes group by status
  union all select 'google:owed', 0, count(*) from passmint_google_jobs where wanted > done having count(*) > 0
  union all select 'google:retrying', 0, count(*) from passmint_google_jobs where wanted > done and attempts > 0 having count(*) > 0;

  -- Retention: events older than the cutoff, oldest first, without reading the recent ones.
  create index passmint_events_created on passmint_events (created_at);

  -- Queue tables: every row is updated a few times soon after it is written (claimed, then recorded).
  -- Room on each page lets an update that changes no indexed column (a claim, a lease extended) stay
  -- HOT — no new index entries, dead versions pruned on the page — and vacuum runs after a small share
  -- of the table has changed (the default waits for 20 %: at a million deliveries, 200,000 dead rows
  -- that every claim's index scan walks over).
  alter table passmint_deliveries set (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000,
    autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
  alter table passmint_pushes set (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000,
    autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
  alter table passmint_google_jobs set (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
  -- Written once (deleted by retention): vacuumed for the visibility map, so index-only scans stay index-only.
  alter table passmint_events set (autovacuum_vacuum_insert_scale_factor = 0.05, autovacuum_vacuum_scale_factor = 0.05, autovacuum_analyze_scale_factor = 0.05);
  alter table passmint_attempts set (autovacuum_vacuum_insert_scale_factor = 0.05, autovacuum_vacuum_scale_factor = 0.05, autovacuum_analyze_scale_factor = 0.05);
  -- Passes: updated in place (values), read by key.
  alter table passmint_passes set (autovacuum_vacuum_scale_factor = 0.05, autovacuum_analyze_scale_factor = 0.05);
  `,
  // Deliveries keep up (issue 28): several of a registration's deliveries in flight at once, in order per
  // pass. Each delivery carries its event's pass (pass_key). One queued behind a pending delivery of the same
  // pass to the same registration waits, parked at next_attempt_at = 'infinity', until the last one before it
  // ends: whatever ends it (delivered, given up, cancelled) makes the next one due, in the same transaction.
  // So every due pending delivery is the oldest of its pass, and a claim reads only due ones, from an index
  // that holds no parked delivery.
  `
  -- A pass as a number: a hash of passTypeIdentifier and serialNumber of the event's data; 0 for an event
  -- about no pass (a job's, say), which makes those one queue per registration, in order among themselves.
  -- Two passes whose hashes meet share a queue: stricter order, nothing lost. An event's text may hold
  -- escapes PostgreSQL's json cannot read (\\u0000, a lone surrogate, in a holder's personalization fields):
  -- each \\u0000 and surrogate escape is read as U+FFFD, the same for every event of a pass.
  create function passmint_pass_key(body text) returns bigint language sql immutable as $$
    select coalesce(hashtextextended((d ->> 'passTypeIdentifier') || ' ' || (d ->> 'serialNumber'), 0), 0)
      from (select regexp_replace(body, '\\\\u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})', '\\\\ufffd', 'g')::json -> 'data' as d) x
  $$;

  alter table passmint_deliveries add column pass_key bigint not null default 0;

  -- Every way a delivery is queued (an event's fan-out, a pass batch, an import, a replay) goes through
  -- this: the delivery gets its pass, and is parked when a delivery of that pass to that registration is
  -- pending. The newest such one is locked (for share) until this transaction ends, so it cannot end
  -- unseen: ending it waits for this transaction, whose parked delivery it then makes due (below); or, when
  -- it ended first, the lock finds it ended and this one is due. Fan-outs are serialized by the event
  -- counter's row lock and insert a statement's deliveries in event order.
  create function passmint_delivery_queued() returns trigger language plpgsql as $$
  begin
    new.pass_key := coalesce((select passmint_pass_key(e.body) from passmint_events e where e.seq = new.event_seq), 0);
    perform 1 from passmint_deliveries p
      where p.webhook_id = new.webhook_id and p.pass_key = new.pass_key and p.status = 'pending'
      order by p.event_seq desc limit 1
      for share;
    if found then new.next_attempt_at := 'infinity'; end if;
    return new;
  end
  $$;
  create trigger passmint_delivery_queued before insert on passmint_deliveries
    for each row execute function passmint_delivery_queued();

  -- A delivery that stops being pending makes the next pending one of its pass to its registration due. Run
  -- at the end of the statement that ended it, in a snapshot of its own: it sees a delivery parked by a
  -- transaction that committed while that statement waited for its row.
  create function passmint_delivery_ended() returns trigger language plpgsql as $$
  begin
    update passmint_deliveries d set next_attempt_at = now()
     where d.id = (select p.id from passmint_deliveries p
                    where p.webhook_id = old.webhook_id and p.pass_key = old.pass_key and p.status = 'pending'
                    order by p.event_seq limit 1)
       and d.status = 'pending' and d.next_attempt_at = 'infinity';
    return null;
  end
  $$;
  create trigger passmint_delivery_ended after update on passmint_deliveries
    for each row when (old.status = 'pending' and new.status <> 'pending') execute function passmint_delivery_ended();

  -- A registration's pending deliveries of one pass, oldest first: is one pending (above), which is next.
  create index passmint_deliveries_pass on passmint_deliveries (webhook_id, pass_key, event_seq) where status = 'pending';
  -- A registration's due deliveries (the oldest of each pass), those in flight included, in the order a claim
  -- takes them; parked ones are not in it. A claim or a lease extended changes none of these columns (HOT).
  create index passmint_deliveries_ready on passmint_deliveries (webhook_id, next_attempt_at, event_seq)
    where status = 'pending' and next_attempt_at < 'infinity';

  -- The deliveries pending now: their passes, and the later ones of a pass parked behind the oldest.
  update passmint_deliveries d set pass_key = passmint_pass_key(e.body)
    from passmint_events e where e.seq = d.event_seq and d.status = 'pending';
  update passmint_deliveries d set next_attempt_at = 'infinity'
   where d.status = 'pending'
     and exists (select 1 from passmint_deliveries p
                  where p.webhook_id = d.webhook_id and p.pass_key = d.pass_key and p.status = 'pending' and p.event_seq < d.event_seq);
  `,
  ...PROGRAM_MIGRATIONS,
  ...SHARING_MIGRATIONS,
  ...IDENTITY_MIGRATIONS,
  ...AUDIT_MIGRATIONS,
  ...CONSOLE_MIGRATIONS,
];

// Any constant shared by every passmint process: the advisory lock that serializes migrations.
const MIGRATION_LOCK = 0x7061_7373; // 'pass'

/**
 * Brings the database's schema up to date. Safe when several processes start
 * at once: each takes a transaction-scoped advisory lock first, so one
 * migrates while the others wait and then find nothing left to do. Returns
 * how many migrations it applied.
 *
 * @example
 * ```ts
 * await migrate(await openPostgres({ connectionString: process.env.DATABASE_URL! }));
 * ```
 */
export async function migrate(db: SqlDatabase): Promise<number> {
  return db.transaction(async (tx) => {
    // Waiting for another process's migration, or building an index on a large table, may take longer than a request's statement timeout.
    await tx.query('set local statement_timeout = 0');
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query('create table if not exists passmint_migrations (version integer primary key, applied_at timestamptz not null default now())');
    const rows = await tx.query<{ version: number }>('select coalesce(max(version), 0)::int as version from passmint_migrations');
    const current = rows[0]?.version ?? 0;
    if (current > MIGRATIONS.length) {
      throw new Error(`The database's schema (version ${current}) is newer than this passmint's (${MIGRATIONS.length}): upgrade passmint`);
    }
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      await tx.exec(MIGRATIONS[version - 1]!);
      await tx.query('insert into passmint_migrations (version) values ($1)', [version]);
    }
    return MIGRATIONS.length - current;
  });
}

/** How many migrations this passmint has: the schema version a ready database is at. */
export function schemaVersion(): number {
  return MIGRATIONS.length;
}
