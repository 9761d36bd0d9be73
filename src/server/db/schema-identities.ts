// The migrations of certificates, secrets at rest and Google credentials, in order, applied after the ones in
// schema.ts. (Folded into schema.ts's one list once they have shipped.)
export const IDENTITY_MIGRATIONS: readonly string[] = [];
