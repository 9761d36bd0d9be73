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
  `
  -- The template version a pass was last rendered from (null: made before versions were recorded), and its
  -- lifecycle: active, voided (final: its values never change again) or expired.
  alter table passmint_passes add column rendered_version integer;
  alter table passmint_passes add column state text not null default 'active' check (state in ('active', 'voided', 'expired'));
  -- A template's passes by the version they are at: the counts of GET /v1/templates/{id}/versions (an index-only scan).
  create index passmint_passes_rendered on passmint_passes (template_id, rendered_version);

  -- Every version of a template: when it was made, by whom (the API key's id, when the change recorded one), and
  -- whether only its files changed (the body is the same: pass.json renders the same, the package does not).
  create table passmint_template_versions (
    template_id integer not null references passmint_templates (id) on delete cascade,
    version integer not null,
    files_changed boolean not null default false,
    key_id text,
    created_at timestamptz not null default now(),
    primary key (template_id, version)
  );
  insert into passmint_template_versions (template_id, version, created_at) select id, version, updated_at from passmint_templates;

  create function passmint_template_version() returns trigger language plpgsql as $$
  begin
    insert into passmint_template_versions (template_id, version, files_changed, key_id)
    values (new.id, new.version, TG_OP = 'UPDATE' and new.template::text = old.template::text,
            nullif(current_setting('passmint.key_id', true), ''))
    on conflict (template_id, version) do nothing;
    return null;
  end $$;
  create trigger passmint_template_version_insert after insert on passmint_templates
    for each row execute function passmint_template_version();
  create trigger passmint_template_version_update after update of version on passmint_templates
    for each row when (new.version is distinct from old.version) execute function passmint_template_version();

  -- A job's position in its own terms (a publish's or a bulk void's last pass, by seq), committed with each batch.
  alter table passmint_jobs add column cursor_key bigint;
  `,
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
  // A key limited to some templates: their ids (decimal text); null, every template.
  `
  alter table passmint_api_keys add column template_ids text[];
  `,
  // The audit log: rows only added (and deleted by retention), listed newest first by seq; each
  // filter of GET /v1/audit has its index, ending in seq for the page's order.
  `
  create table passmint_audit (
    seq bigserial primary key,
    at timestamptz not null default now(),
    actor_id text not null,
    actor_name text not null,
    via text not null check (via in ('key', 'session', 'command')),
    address text,
    action text not null,
    target text,
    status integer not null,
    problem text,
    request_id text
  );
  create index passmint_audit_at on passmint_audit (at, seq);
  create index passmint_audit_action on passmint_audit (action, seq);
  create index passmint_audit_actor on passmint_audit (actor_id, seq);
  create index passmint_audit_target on passmint_audit (target, seq);
  `,
  // The console (docs/console.md): sign-in sessions, the stats roll-ups and each pass's timeline, all kept by
  // triggers in the transactions that write the rows they are made from.
  `
  -- A console session: an API key exchanged for a cookie. Only the cookie's SHA-256 is stored; the session
  -- acts as the key whose SHA-256 is key_hash (a revoked or deleted key ends it). last_seen_at slides.
  create table passmint_console_sessions (
    token_hash text primary key,
    key_hash text not null,
    csrf_token text not null,
    created_at timestamptz not null,
    last_seen_at timestamptz not null
  );
  create index passmint_console_sessions_key on passmint_console_sessions (key_hash);
  create index passmint_console_sessions_seen on passmint_console_sessions (last_seen_at);

  -- Per template and UTC hour: passes made, downloads, first saves and last removals per wallet, and the
  -- devices (Apple) and saves (Google) holding the template's passes at the end of the hour (null: unchanged
  -- in that hour). A row is written only for an hour something happened in.
  create table passmint_stats_hourly (
    template_id integer not null,
    hour timestamptz not null,
    passes_made integer not null default 0,
    downloads integer not null default 0,
    added_apple integer not null default 0,
    added_google integer not null default 0,
    removed_apple integer not null default 0,
    removed_google integer not null default 0,
    devices_apple bigint,
    devices_google bigint,
    primary key (template_id, hour)
  );
  create index passmint_stats_hourly_hour on passmint_stats_hourly (hour, template_id);
  create index passmint_stats_hourly_devices on passmint_stats_hourly (template_id, hour) where devices_apple is not null;

  -- Per template, now: its passes, and the devices and saves holding them.
  create table passmint_template_stats (
    template_id integer primary key,
    passes bigint not null default 0,
    devices_apple bigint not null default 0,
    devices_google bigint not null default 0
  );

  -- Per pass and wallet: how many hold it now. The row's existence says it was saved to that wallet once,
  -- so a later save (a re-registration, a second device) is not counted as added again.
  create table passmint_pass_wallets (
    pass_type_identifier text not null,
    serial_number text not null,
    wallet text not null,
    holders integer not null,
    primary key (pass_type_identifier, serial_number, wallet)
  );

  -- What happened to each pass, newest first by id (at: the clock when recorded, so the two orders agree). Kinds made by API calls (created, updated, voided,
  -- expired, message) are all kept; those anyone holding the pass can cause (downloads, Wallet's fetches,
  -- saves, and what follows them: pushes, syncs, deliveries) are trimmed to about the newest 100 per pass.
  create table passmint_timeline (
    id bigserial primary key,
    pass_type_identifier text not null,
    serial_number text not null,
    at timestamptz not null default clock_timestamp(),
    kind text not null,
    detail json not null
  );
  create index passmint_timeline_pass on passmint_timeline (pass_type_identifier, serial_number, id);
  create index passmint_timeline_trimmed on passmint_timeline (pass_type_identifier, serial_number, id)
    where kind not in ('created', 'updated', 'voided', 'expired', 'message');

  -- The passes an APNs push tells about (a push goes to a device and pass type, not to a pass): those of the
  -- device changed in the transaction that queued the push. Kept until the push ends.
  create table passmint_push_passes (
    push_id bigint not null,
    pass_type_identifier text not null,
    serial_number text not null,
    primary key (push_id, pass_type_identifier, serial_number)
  );

  -- An event's data, as the delivery queue reads it (escapes json cannot hold read as U+FFFD).
  -- (Most bodies hold no escape at all: no regular expression for them.)
  create function passmint_event_data(body text) returns json language sql immutable as $$
    select (case when strpos(body, '\\u') = 0 then body
                 else regexp_replace(body, '\\\\u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})', '\\\\ufffd', 'g') end)::json -> 'data'
  $$;

  -- Keeps about the newest 100 trimmed entries of a pass (called on a share of the inserts, see below).
  create function passmint_timeline_trim(pt text, sn text) returns void language sql as $$
    delete from passmint_timeline t
     where t.pass_type_identifier = pt and t.serial_number = sn
       and t.kind not in ('created', 'updated', 'voided', 'expired', 'message')
       and t.id < (select x.id from passmint_timeline x
                    where x.pass_type_identifier = pt and x.serial_number = sn
                      and x.kind not in ('created', 'updated', 'voided', 'expired', 'message')
                    order by x.id desc offset 99 limit 1)
  $$;

  -- The timeline kind of an event type (null: not on a timeline).
  create function passmint_timeline_kind(type text) returns text language sql immutable as $$
    select case
      when type = 'pass.created' then 'created'
      when type in ('pass.updated', 'pass.personalized', 'pass.reactivated') then 'updated'
      when type = 'pass.downloaded' then 'downloaded'
      when type = 'pass.voided' then 'voided'
      when type = 'pass.expired' then 'expired'
      when type = 'registration.created' then 'added'
      when type = 'registration.deleted' then 'removed'
      when type like '%message%' then 'message'
      else null end
  $$;

  -- Events: their passes' timelines, the hourly roll-ups and the first-save bookkeeping, in the transaction
  -- that adds them (every event goes through passmint_events, whoever adds it). Set-based for the many
  -- (creates, downloads); one at a time for registrations (one event per request).
  create function passmint_console_events() returns trigger language plpgsql as $$
  declare
    seqs bigint[];
    ids uuid[];
    types text[];
    pts text[];
    sns text[];
    datas json[];
    template_ids integer[];
    versions integer[];
    hours timestamptz[];
    r record;
    first boolean;
    left_now integer;
    totals record;
  begin
    -- Each event's data read once, with its pass's template and version (by the passes' primary key).
    select array_agg(x.seq order by x.seq), array_agg(x.id order by x.seq), array_agg(x.type order by x.seq),
           array_agg(x.d ->> 'passTypeIdentifier' order by x.seq), array_agg(x.d ->> 'serialNumber' order by x.seq), array_agg(x.d order by x.seq),
           array_agg(v.template_id order by x.seq), array_agg(v.version order by x.seq), array_agg(date_trunc('hour', x.created_at, 'UTC') order by x.seq)
      into seqs, ids, types, pts, sns, datas, template_ids, versions, hours
      from (select e.seq, e.id, e.type, e.created_at, passmint_event_data(e.body) as d
              from new_rows e where passmint_timeline_kind(e.type) is not null) x
      -- Per event, by the passes' primary key (never a join over all passes, whatever the plan's estimate).
      left join lateral (
        select p.template_id, p.version from passmint_passes p
         where p.pass_type_identifier = x.d ->> 'passTypeIdentifier' and p.serial_number = x.d ->> 'serialNumber') v on true;
    if seqs is null then return null; end if;

    insert into passmint_timeline (pass_type_identifier, serial_number, kind, detail)
    select x.pt, x.sn, passmint_timeline_kind(x.type),
           json_build_object('event', x.type, 'eventId', x.id, 'version', x.version, 'wallet', x.d ->> 'wallet',
                             'device', x.d ->> 'deviceLibraryIdentifier', 'objectId', x.d ->> 'objectId')
      from unnest(seqs, ids, types, pts, sns, datas, versions) as x(seq, id, type, pt, sn, d, version)
     where x.pt is not null and x.sn is not null
     order by x.seq;

    -- Lock order, everywhere: the event counter (held by whoever adds events), a pass's wallets, its
    -- template's totals, then the hourly rows; a pass's deletion takes the same order without the counter.
    -- (Each statement below runs only when the events hold what it counts: most statements add one event.)
    if 'pass.created' = any (types) then
    insert into passmint_template_stats as t (template_id, passes)
    select x.template_id, count(*) from unnest(types, template_ids) as x(type, template_id)
     where x.type = 'pass.created' and x.template_id is not null
     group by x.template_id order by x.template_id
    on conflict (template_id) do update set passes = t.passes + excluded.passes;
    end if;

    if types && array['pass.created', 'pass.downloaded'] then
    insert into passmint_stats_hourly as s (template_id, hour, passes_made, downloads)
    select x.template_id, x.hour, count(*) filter (where x.type = 'pass.created'), count(*) filter (where x.type = 'pass.downloaded')
      from unnest(types, template_ids, hours) as x(type, template_id, hour)
     where x.type in ('pass.created', 'pass.downloaded') and x.template_id is not null
     group by 1, 2 order by 1, 2
    on conflict (template_id, hour) do update set passes_made = s.passes_made + excluded.passes_made, downloads = s.downloads + excluded.downloads;
    end if;

    if not (types && array['pass.downloaded', 'registration.created', 'registration.deleted']) then return null; end if;

    -- Downloads and saves anyone holding the pass can make: their passes trimmed now and then (about one event in eight).
    perform passmint_timeline_trim(x.pt, x.sn)
       from (select distinct y.pt, y.sn from unnest(seqs, types, pts, sns) as y(seq, type, pt, sn)
              where y.type in ('pass.downloaded', 'registration.created', 'registration.deleted') and y.seq % 8 = 0
                and y.pt is not null and y.sn is not null) x;

    for r in
      select x.type, x.hour, coalesce(x.d ->> 'wallet', 'apple') as wallet, x.pt, x.sn, x.template_id
        from unnest(seqs, types, pts, sns, datas, template_ids, hours) as x(seq, type, pt, sn, d, template_id, hour)
       where x.type in ('registration.created', 'registration.deleted') and x.template_id is not null
         and coalesce(x.d ->> 'wallet', 'apple') in ('apple', 'google')
       order by x.seq
    loop
      if r.type = 'registration.created' then
        insert into passmint_pass_wallets as w (pass_type_identifier, serial_number, wallet, holders) values (r.pt, r.sn, r.wallet, 1)
        on conflict (pass_type_identifier, serial_number, wallet) do update set holders = w.holders + 1
        returning (xmax = 0) into first;
        insert into passmint_template_stats as t (template_id, devices_apple, devices_google)
        values (r.template_id, case when r.wallet = 'apple' then 1 else 0 end, case when r.wallet = 'google' then 1 else 0 end)
        on conflict (template_id) do update set devices_apple = t.devices_apple + excluded.devices_apple, devices_google = t.devices_google + excluded.devices_google
        returning t.devices_apple, t.devices_google into totals;
        insert into passmint_stats_hourly as s (template_id, hour, added_apple, added_google, devices_apple, devices_google)
        values (r.template_id, r.hour,
                case when first and r.wallet = 'apple' then 1 else 0 end, case when first and r.wallet = 'google' then 1 else 0 end,
                totals.devices_apple, totals.devices_google)
        on conflict (template_id, hour) do update set added_apple = s.added_apple + excluded.added_apple, added_google = s.added_google + excluded.added_google,
          devices_apple = excluded.devices_apple, devices_google = excluded.devices_google;
      else
        -- Only a pass known to be held there (a save seen by this service) can be removed from it.
        update passmint_pass_wallets set holders = holders - 1
         where pass_type_identifier = r.pt and serial_number = r.sn and wallet = r.wallet and holders > 0
        returning holders into left_now;
        if found then
          update passmint_template_stats t set devices_apple = t.devices_apple - case when r.wallet = 'apple' then 1 else 0 end,
                 devices_google = t.devices_google - case when r.wallet = 'google' then 1 else 0 end
           where t.template_id = r.template_id
          returning t.devices_apple, t.devices_google into totals;
          insert into passmint_stats_hourly as s (template_id, hour, removed_apple, removed_google, devices_apple, devices_google)
          values (r.template_id, r.hour,
                  case when left_now = 0 and r.wallet = 'apple' then 1 else 0 end, case when left_now = 0 and r.wallet = 'google' then 1 else 0 end,
                  totals.devices_apple, totals.devices_google)
          on conflict (template_id, hour) do update set removed_apple = s.removed_apple + excluded.removed_apple,
            removed_google = s.removed_google + excluded.removed_google, devices_apple = excluded.devices_apple, devices_google = excluded.devices_google;
        end if;
      end if;
    end loop;
    return null;
  end
  $$;
  create trigger passmint_console_events after insert on passmint_events
    referencing new table as new_rows for each statement execute function passmint_console_events();

  -- A deleted pass: out of its template's passes, its holders out of the devices count (its registrations go
  -- with it, without events), its timeline gone. (Passes made are counted from their pass.created events.)
  create function passmint_console_passes() returns trigger language plpgsql as $$
  begin
    delete from passmint_timeline t using old_rows o where t.pass_type_identifier = o.pass_type_identifier and t.serial_number = o.serial_number;
    with gone as (
      delete from passmint_pass_wallets w using old_rows o
       where w.pass_type_identifier = o.pass_type_identifier and w.serial_number = o.serial_number
      returning o.template_id, w.wallet, w.holders),
    held as (
      select template_id, coalesce(sum(holders) filter (where wallet = 'apple'), 0) as a, coalesce(sum(holders) filter (where wallet = 'google'), 0) as g
        from gone group by template_id),
    counted as (
      select o.template_id, count(*) as n, coalesce(max(h.a), 0) as a, coalesce(max(h.g), 0) as g
        from old_rows o left join held h on h.template_id = o.template_id group by o.template_id),
    totals as (
      update passmint_template_stats t set passes = t.passes - c.n, devices_apple = t.devices_apple - c.a, devices_google = t.devices_google - c.g
        from (select * from counted order by template_id) c where t.template_id = c.template_id
      returning t.template_id, t.devices_apple, t.devices_google, c.a + c.g > 0 as changed)
    insert into passmint_stats_hourly as s (template_id, hour, devices_apple, devices_google)
    select template_id, date_trunc('hour', now(), 'UTC'), devices_apple, devices_google from totals where changed order by template_id
    on conflict (template_id, hour) do update set devices_apple = excluded.devices_apple, devices_google = excluded.devices_google;
    return null;
  end
  $$;
  create trigger passmint_console_passes_delete after delete on passmint_passes
    referencing old table as old_rows for each statement execute function passmint_console_passes();

  -- A webhook delivery that ended (delivered, given up, cancelled): on its pass's timeline.
  create function passmint_console_delivery() returns trigger language plpgsql as $$
  declare
    e record;
    added bigint;
  begin
    select x.type, passmint_event_data(x.body) as d into e from passmint_events x where x.seq = new.event_seq;
    if e.d ->> 'passTypeIdentifier' is null or e.d ->> 'serialNumber' is null then return null; end if;
    insert into passmint_timeline (pass_type_identifier, serial_number, kind, detail)
    values (e.d ->> 'passTypeIdentifier', e.d ->> 'serialNumber', 'delivered',
            json_build_object('event', e.type, 'webhookId', new.webhook_id, 'status', new.status, 'httpStatus', new.last_status,
                              'attempts', new.attempts, 'error', new.last_error))
    returning id into added;
    if added % 8 = 0 then perform passmint_timeline_trim(e.d ->> 'passTypeIdentifier', e.d ->> 'serialNumber'); end if;
    return null;
  end
  $$;
  create trigger passmint_console_delivery after update on passmint_deliveries
    for each row when (old.status = 'pending' and new.status <> 'pending') execute function passmint_console_delivery();

  -- A Google Wallet object synced (done caught up, or Google refused the change as it is).
  create function passmint_console_google() returns trigger language plpgsql as $$
  declare
    added bigint;
  begin
    insert into passmint_timeline (pass_type_identifier, serial_number, kind, detail)
    values (new.pass_type_identifier, new.serial_number, 'google-synced', json_build_object('ok', new.last_error is null, 'error', new.last_error))
    returning id into added;
    if added % 8 = 0 then perform passmint_timeline_trim(new.pass_type_identifier, new.serial_number); end if;
    return null;
  end
  $$;
  create trigger passmint_console_google after update on passmint_google_jobs
    for each row when (new.kind = 'object' and new.done > old.done and new.pass_type_identifier is not null and new.serial_number is not null)
    execute function passmint_console_google();

  -- Pushes queued: the passes of each push's device changed by this transaction (their rows' xmin is it).
  create function passmint_console_pushes_queued() returns trigger language plpgsql as $$
  begin
    insert into passmint_push_passes (push_id, pass_type_identifier, serial_number)
    select n.id, r.pass_type_identifier, r.serial_number
      from new_rows n
      join passmint_wallet_registrations r on r.push_token = n.push_token and r.pass_type_identifier = n.topic
      join passmint_passes p on p.pass_type_identifier = r.pass_type_identifier and p.serial_number = r.serial_number
     where p.xmin = pg_current_xact_id()::xid
    on conflict do nothing;
    return null;
  end
  $$;
  create trigger passmint_console_pushes_queued after insert on passmint_pushes
    referencing new table as new_rows for each statement execute function passmint_console_pushes_queued();

  -- A push that ended (sent, gone, failed): on the timelines of the passes it told about.
  create function passmint_console_push_ended() returns trigger language plpgsql as $$
  declare
    r record;
  begin
    for r in delete from passmint_push_passes where push_id = new.id returning pass_type_identifier, serial_number loop
      insert into passmint_timeline (pass_type_identifier, serial_number, kind, detail)
      values (r.pass_type_identifier, r.serial_number, 'pushed',
              json_build_object('outcome', new.status, 'error', new.last_error, 'attempts', new.attempts, 'pushId', new.id));
      if new.id % 8 = 0 then perform passmint_timeline_trim(r.pass_type_identifier, r.serial_number); end if;
    end loop;
    return null;
  end
  $$;
  create trigger passmint_console_push_ended after update on passmint_pushes
    for each row when (old.status = 'pending' and new.status <> 'pending') execute function passmint_console_push_ended();

  -- What exists already: passes per template and the Apple devices holding them (Google saves were only events).
  insert into passmint_template_stats (template_id, passes)
  select template_id, count(*) from passmint_passes group by template_id;
  insert into passmint_pass_wallets (pass_type_identifier, serial_number, wallet, holders)
  select pass_type_identifier, serial_number, 'apple', count(*) from passmint_wallet_registrations group by 1, 2;
  update passmint_template_stats t set devices_apple = x.n
    from (select p.template_id, count(*) as n from passmint_wallet_registrations r
            join passmint_passes p on p.pass_type_identifier = r.pass_type_identifier and p.serial_number = r.serial_number
           group by p.template_id) x
   where t.template_id = x.template_id;
  `,
  // A message to holders (a message job) on the timelines of the passes it changed, from the job's results.
  `
  create function passmint_console_message_results() returns trigger language plpgsql as $$
  begin
    insert into passmint_timeline (pass_type_identifier, serial_number, kind, detail)
    select p.pass_type_identifier, p.serial_number, 'message',
           json_build_object('messageId', m.public_id, 'header', left(m.header, 200), 'body', left(m.body, 500))
      from new_rows r
      join passmint_jobs j on j.id = r.job_id and j.kind = 'message'
      join passmint_messages m on m.job_id = j.id
      join passmint_passes p on p.serial_number = r.serial_number and p.template_id = m.template_id
     where r.status = 'updated'
     order by r.n;
    return null;
  end
  $$;
  create trigger passmint_console_message_results after insert on passmint_job_results
    referencing new table as new_rows for each statement execute function passmint_console_message_results();
  `,
  // The console's roll-ups off the write path: an event's statement writes only its passes' timeline entries;
  // the counts (passmint_template_stats, passmint_stats_hourly, passmint_pass_wallets) and the trimming of
  // timelines are brought up to date by passmint_console_roll, over the events by number, in batches.
  `
  drop trigger passmint_console_events on passmint_events;
  drop function passmint_console_events();

  -- The last event the roll-ups have counted (every event before it too: events become visible in the order
  -- of their numbers, see the event counter). Its row lock is held by whoever rolls up.
  insert into passmint_counters (name, value) select 'console', value from passmint_counters where name = 'event';

  -- Events: their passes' timeline entries, in the transaction that adds them (the version is the pass's when
  -- the event is added). Only the events of passes; one statement however many.
  create function passmint_console_timeline() returns trigger language plpgsql as $$
  begin
    insert into passmint_timeline (pass_type_identifier, serial_number, kind, detail)
    select x.d ->> 'passTypeIdentifier', x.d ->> 'serialNumber', passmint_timeline_kind(x.type),
           json_build_object('event', x.type, 'eventId', x.id, 'version', v.version, 'wallet', x.d ->> 'wallet',
                             'device', x.d ->> 'deviceLibraryIdentifier', 'objectId', x.d ->> 'objectId')
      from (select e.seq, e.id, e.type, passmint_event_data(e.body) as d
              from new_rows e where passmint_timeline_kind(e.type) is not null) x
      -- Per event, by the passes' primary key (never a join over all passes, whatever the plan's estimate).
      left join lateral (
        select p.version from passmint_passes p
         where p.pass_type_identifier = x.d ->> 'passTypeIdentifier' and p.serial_number = x.d ->> 'serialNumber') v on true
     where x.d ->> 'passTypeIdentifier' is not null and x.d ->> 'serialNumber' is not null
     order by x.seq;
    return null;
  end
  $$;
  create trigger passmint_console_timeline after insert on passmint_events
    referencing new table as new_rows for each statement execute function passmint_console_timeline();

  -- Counts the events after the last one counted, at most max_events of them (null: all), in one
  -- transaction with the cursor; resolves to how many it counted, or -1 when another transaction holds the
  -- cursor and wait is false. A pass's template is read when its events are counted: the events of a pass
  -- deleted since are not counted (a deletion counts everything before it first, see below).
  create function passmint_console_roll(max_events integer, wait boolean) returns integer language plpgsql as $$
  declare
    done bigint;
    upto bigint;
    seqs bigint[];
    types text[];
    pts text[];
    sns text[];
    datas json[];
    template_ids integer[];
    hours timestamptz[];
    r record;
    first boolean;
    left_now integer;
    totals record;
  begin
    if wait then
      select value into done from passmint_counters where name = 'console' for update;
    else
      select value into done from passmint_counters where name = 'console' for update skip locked;
      if done is null then return -1; end if;
    end if;
    select max(x.seq) into upto from (select e.seq from passmint_events e where e.seq > done order by e.seq limit max_events) x;
    if upto is null then return 0; end if;
    update passmint_counters set value = upto where name = 'console';

    select array_agg(x.seq order by x.seq), array_agg(x.type order by x.seq),
           array_agg(x.d ->> 'passTypeIdentifier' order by x.seq), array_agg(x.d ->> 'serialNumber' order by x.seq), array_agg(x.d order by x.seq),
           array_agg(v.template_id order by x.seq), array_agg(date_trunc('hour', x.created_at, 'UTC') order by x.seq)
      into seqs, types, pts, sns, datas, template_ids, hours
      from (select e.seq, e.type, e.created_at, passmint_event_data(e.body) as d
              from passmint_events e
             where e.seq > done and e.seq <= upto
               and e.type in ('pass.created', 'pass.downloaded', 'registration.created', 'registration.deleted')) x
      left join lateral (
        select p.template_id from passmint_passes p
         where p.pass_type_identifier = x.d ->> 'passTypeIdentifier' and p.serial_number = x.d ->> 'serialNumber') v on true;
    if seqs is null then return (upto - done)::integer; end if;

    -- Lock order, everywhere: the cursor, a pass's wallets, its template's totals, then the hourly rows.
    if 'pass.created' = any (types) then
    insert into passmint_template_stats as t (template_id, passes)
    select x.template_id, count(*) from unnest(types, template_ids) as x(type, template_id)
     where x.type = 'pass.created' and x.template_id is not null
     group by x.template_id order by x.template_id
    on conflict (template_id) do update set passes = t.passes + excluded.passes;
    end if;

    if types && array['pass.created', 'pass.downloaded'] then
    insert into passmint_stats_hourly as s (template_id, hour, passes_made, downloads)
    select x.template_id, x.hour, count(*) filter (where x.type = 'pass.created'), count(*) filter (where x.type = 'pass.downloaded')
      from unnest(types, template_ids, hours) as x(type, template_id, hour)
     where x.type in ('pass.created', 'pass.downloaded') and x.template_id is not null
     group by 1, 2 order by 1, 2
    on conflict (template_id, hour) do update set passes_made = s.passes_made + excluded.passes_made, downloads = s.downloads + excluded.downloads;
    end if;

    -- The timelines that downloads and saves (which anyone holding the pass can make) add to: trimmed.
    perform passmint_timeline_trim(x.pt, x.sn)
       from (select distinct y.pt, y.sn from unnest(types, pts, sns) as y(type, pt, sn)
              where y.type <> 'pass.created' and y.pt is not null and y.sn is not null) x;

    for r in
      select x.type, x.hour, coalesce(x.d ->> 'wallet', 'apple') as wallet, x.pt, x.sn, x.template_id
        from unnest(seqs, types, pts, sns, datas, template_ids, hours) as x(seq, type, pt, sn, d, template_id, hour)
       where x.type in ('registration.created', 'registration.deleted') and x.template_id is not null
         and coalesce(x.d ->> 'wallet', 'apple') in ('apple', 'google')
       order by x.seq
    loop
      if r.type = 'registration.created' then
        insert into passmint_pass_wallets as w (pass_type_identifier, serial_number, wallet, holders) values (r.pt, r.sn, r.wallet, 1)
        on conflict (pass_type_identifier, serial_number, wallet) do update set holders = w.holders + 1
        returning (xmax = 0) into first;
        insert into passmint_template_stats as t (template_id, devices_apple, devices_google)
        values (r.template_id, case when r.wallet = 'apple' then 1 else 0 end, case when r.wallet = 'google' then 1 else 0 end)
        on conflict (template_id) do update set devices_apple = t.devices_apple + excluded.devices_apple, devices_google = t.devices_google + excluded.devices_google
        returning t.devices_apple, t.devices_google into totals;
        insert into passmint_stats_hourly as s (template_id, hour, added_apple, added_google, devices_apple, devices_google)
        values (r.template_id, r.hour,
                case when first and r.wallet = 'apple' then 1 else 0 end, case when first and r.wallet = 'google' then 1 else 0 end,
                totals.devices_apple, totals.devices_google)
        on conflict (template_id, hour) do update set added_apple = s.added_apple + excluded.added_apple, added_google = s.added_google + excluded.added_google,
          devices_apple = excluded.devices_apple, devices_google = excluded.devices_google;
      else
        -- Only a pass known to be held there (a save counted here) can be removed from it.
        update passmint_pass_wallets set holders = holders - 1
         where pass_type_identifier = r.pt and serial_number = r.sn and wallet = r.wallet and holders > 0
        returning holders into left_now;
        if found then
          update passmint_template_stats t set devices_apple = t.devices_apple - case when r.wallet = 'apple' then 1 else 0 end,
                 devices_google = t.devices_google - case when r.wallet = 'google' then 1 else 0 end
           where t.template_id = r.template_id
          returning t.devices_apple, t.devices_google into totals;
          insert into passmint_stats_hourly as s (template_id, hour, removed_apple, removed_google, devices_apple, devices_google)
          values (r.template_id, r.hour,
                  case when left_now = 0 and r.wallet = 'apple' then 1 else 0 end, case when left_now = 0 and r.wallet = 'google' then 1 else 0 end,
                  totals.devices_apple, totals.devices_google)
          on conflict (template_id, hour) do update set removed_apple = s.removed_apple + excluded.removed_apple,
            removed_google = s.removed_google + excluded.removed_google, devices_apple = excluded.devices_apple, devices_google = excluded.devices_google;
        end if;
      end if;
    end loop;
    return (upto - done)::integer;
  end
  $$;

  -- Passes about to be deleted: every event before the deletion counted first (their pass.created among
  -- them, read while the passes still exist), so that what the deletion takes away was counted.
  create function passmint_console_roll_all() returns trigger language plpgsql as $$
  begin
    perform passmint_console_roll(null, true);
    return null;
  end
  $$;
  create trigger passmint_console_passes_roll before delete on passmint_passes
    for each statement execute function passmint_console_roll_all();
  `,
  // A delivery accepted by its receiver is put on its pass's timeline by the statement that records it (many
  // at once, db/deliveries.ts); the row trigger keeps the other ends (given up, cancelled).
  `
  drop trigger passmint_console_delivery on passmint_deliveries;
  create trigger passmint_console_delivery after update on passmint_deliveries
    for each row when (old.status = 'pending' and new.status not in ('pending', 'delivered')) execute function passmint_console_delivery();
  `,
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
