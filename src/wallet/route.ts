import { compilePath, matchPath, type PathParams, type PathPattern } from '../http/path-pattern.js';

/**
 * Apple's calls (and Wallet's log) by kind: the path below the base path and
 * the methods each answers; anything else is 405 with these as `Allow`.
 */
export const WALLET_PATHS = {
  registration: { path: '/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}', methods: 'POST, DELETE' },
  serials: { path: '/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}', methods: 'GET, HEAD' },
  pass: { path: '/v1/passes/{passTypeIdentifier}/{serialNumber}', methods: 'GET, HEAD' },
  personalize: { path: '/v1/passes/{passTypeIdentifier}/{serialNumber}/personalize', methods: 'POST' },
  log: { path: '/v1/log', methods: 'POST' },
} as const;

type WalletPaths = typeof WALLET_PATHS;

/** A request path (below the base path) that matched one of Apple's calls; segments still percent-encoded. */
export type WalletRoute = { readonly [TKind in keyof WalletPaths]: { readonly kind: TKind } & PathParams<WalletPaths[TKind]['path']> }[keyof WalletPaths];

/** The methods each call answers; anything else is 405 with this as `Allow`. */
export const allowedMethods: { readonly [K in WalletRoute['kind']]: string } = {
  registration: WALLET_PATHS.registration.methods,
  serials: WALLET_PATHS.serials.methods,
  pass: WALLET_PATHS.pass.methods,
  personalize: WALLET_PATHS.personalize.methods,
  log: WALLET_PATHS.log.methods,
};

const patterns = (Object.keys(WALLET_PATHS) as (keyof WalletPaths)[]).map(
  (kind) => [kind, compilePath(WALLET_PATHS[kind].path)] as const,
) as readonly (readonly [WalletRoute['kind'], PathPattern])[];

/**
 * Matches a path against Apple's routes: `/v1/devices/{d}/registrations/{t}/{s}`,
 * `/v1/devices/{d}/registrations/{t}`, `/v1/passes/{t}/{s}`,
 * `/v1/passes/{t}/{s}/personalize` and `/v1/log`.
 * Parameters are non-empty and hold no raw `/`.
 *
 * @example
 * ```ts
 * matchWalletRoute('/v1/passes/pass.com.example/E5982H'); // { kind: 'pass', passTypeIdentifier: 'pass.com.example', serialNumber: 'E5982H' }
 * ```
 */
export function matchWalletRoute(path: string): WalletRoute | undefined {
  const segments = path.split('/');
  for (const [kind, pattern] of patterns) {
    const params = matchPath(pattern, segments);
    // The names are the kind's own pattern's: the union member of that kind.
    if (params !== undefined) return { kind, ...params } as WalletRoute;
  }
  return undefined;
}
