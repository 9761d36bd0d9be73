// What a user typed into a rewards-enrollment pass's signup form. Shared by
// passmint/wallet (which reads it from Wallet's call) and passmint/webhooks
// (whose pass.personalized event carries it), so it lives beside both.

/**
 * What the user typed into the signup form: the members Apple's
 * `RequiredPersonalizationInfo` holds, each present when the pass's
 * `personalization.json` asked for it (a name comes as `fullName`,
 * `givenName` and `familyName`; a postal code with `ISOCountryCode`).
 *
 * @example
 * ```ts
 * const info: PersonalizationInfo = { fullName: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace', emailAddress: 'ada@example.com' };
 * ```
 */
export interface PersonalizationInfo {
  readonly fullName?: string;
  readonly givenName?: string;
  readonly familyName?: string;
  readonly emailAddress?: string;
  readonly postalCode?: string;
  readonly ISOCountryCode?: string;
  readonly phoneNumber?: string;
}
