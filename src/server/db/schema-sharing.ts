// The migrations of share pages, bundles and messages to holders, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const SHARING_MIGRATIONS: readonly string[] = [];
