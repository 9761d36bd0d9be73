// The migrations of publishing, lifecycle (void, expire) and template versions, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const PROGRAM_MIGRATIONS: readonly string[] = [
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
];
