// The migrations of the audit log and keys limited to templates, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const AUDIT_MIGRATIONS: readonly string[] = [
  // A key limited to some templates: their ids (decimal text); null, every template.
  `
  alter table passmint_api_keys add column template_ids text[];
  `,
];
