// The migrations of console sessions, stats roll-ups and timelines, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const CONSOLE_MIGRATIONS: readonly string[] = [
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
];
