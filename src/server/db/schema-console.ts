// The migrations of console sessions, stats roll-ups and timelines, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const CONSOLE_MIGRATIONS: readonly string[] = [];
