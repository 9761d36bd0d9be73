/**
 * APNs origins: `production` for apps and passes signed for distribution
 * (every Pass Type ID certificate works here), `development` for the sandbox.
 *
 * @example
 * ```ts
 * createApnsClient({ certificate, origin: APNS_ORIGINS.development });
 * ```
 */
export const APNS_ORIGINS: { readonly production: string; readonly development: string } = {
  production: 'https://api.push.apple.com',
  development: 'https://api.sandbox.push.apple.com',
};
