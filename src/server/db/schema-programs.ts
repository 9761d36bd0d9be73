// The migrations of publishing, lifecycle (void, expire) and template versions, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const PROGRAM_MIGRATIONS: readonly string[] = [];
