/** A request path (below the base path) that matched one of Apple's calls; segments still percent-encoded. */
export type WalletRoute =
  | {
      readonly kind: 'registration';
      readonly deviceLibraryIdentifier: string;
      readonly passTypeIdentifier: string;
      readonly serialNumber: string;
    }
  | { readonly kind: 'serials'; readonly deviceLibraryIdentifier: string; readonly passTypeIdentifier: string }
  | { readonly kind: 'pass'; readonly passTypeIdentifier: string; readonly serialNumber: string }
  | { readonly kind: 'personalize'; readonly passTypeIdentifier: string; readonly serialNumber: string }
  | { readonly kind: 'log' };

/** The methods each call answers; anything else is 405 with this as `Allow`. */
export const allowedMethods: { readonly [K in WalletRoute['kind']]: string } = {
  registration: 'POST, DELETE',
  serials: 'GET, HEAD',
  pass: 'GET, HEAD',
  personalize: 'POST',
  log: 'POST',
};

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
  const parts = path.split('/');
  // '' before the first slash, then 'v1'.
  if (parts[0] !== '' || parts[1] !== 'v1' || parts.some((part, index) => index > 0 && part === '')) return undefined;
  const [, , first, second, third, fourth, fifth] = parts;
  if (first === 'log' && parts.length === 3) return { kind: 'log' };
  if (first === 'passes' && parts.length === 5 && second !== undefined && third !== undefined) {
    return { kind: 'pass', passTypeIdentifier: second, serialNumber: third };
  }
  if (first === 'passes' && parts.length === 6 && fourth === 'personalize' && second !== undefined && third !== undefined) {
    return { kind: 'personalize', passTypeIdentifier: second, serialNumber: third };
  }
  if (first === 'devices' && third === 'registrations' && second !== undefined && fourth !== undefined) {
    if (parts.length === 6) return { kind: 'serials', deviceLibraryIdentifier: second, passTypeIdentifier: fourth };
    if (parts.length === 7 && fifth !== undefined) {
      return { kind: 'registration', deviceLibraryIdentifier: second, passTypeIdentifier: fourth, serialNumber: fifth };
    }
  }
  return undefined;
}
