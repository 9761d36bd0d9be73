// The migrations of the audit log and keys limited to templates, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const AUDIT_MIGRATIONS: readonly string[] = [
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
];
