/**
 * Where a webhook registration stands. `pending`: added, not yet verified,
 * receives nothing but `webhook.verify`. `enabled`: verified, receives every
 * event. `disabled`: switched off by the account holder.
 */
export type RegistrationState = 'pending' | 'enabled' | 'disabled';

/**
 * What can happen to a registration: the handshake succeeded (`verified`) or
 * not (`verification-failed`), the holder switched it off (`disable`) or on
 * again (`enable`), or its URL changed (`url-changed`).
 */
export type RegistrationAction = 'verified' | 'verification-failed' | 'disable' | 'enable' | 'url-changed';

/**
 * The state after an action; the registration itself lives in your storage.
 *
 * | state \ action | verified | verification-failed | disable | enable | url-changed |
 * |---|---|---|---|---|---|
 * | pending | enabled | pending | disabled | pending | pending |
 * | enabled | enabled | enabled | disabled | enabled | pending |
 * | disabled | disabled | disabled | disabled | pending | disabled |
 *
 * A handshake never overrides the holder's choice to disable; enabling again
 * asks for a new handshake (the URL may have changed hands meanwhile), and so
 * does a new URL.
 *
 * @example
 * ```ts
 * const result = await verifyEndpoint(registration.url, registration.secret);
 * registration.state = transitionRegistration(registration.state, result.verified ? 'verified' : 'verification-failed');
 * ```
 */
export function transitionRegistration(state: RegistrationState, action: RegistrationAction): RegistrationState {
  switch (action) {
    case 'disable':
      return 'disabled';
    case 'enable':
      return state === 'enabled' ? 'enabled' : 'pending';
    case 'verified':
      return state === 'pending' ? 'enabled' : state;
    case 'verification-failed':
      return state;
    case 'url-changed':
      return state === 'disabled' ? 'disabled' : 'pending';
  }
}
