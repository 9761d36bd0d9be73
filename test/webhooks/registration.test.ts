import { describe, expect, test } from 'vitest';
import { transitionRegistration } from '../../src/webhooks/index.js';
import type { RegistrationAction, RegistrationState } from '../../src/webhooks/index.js';

const table: [RegistrationState, RegistrationAction, RegistrationState][] = [
  ['pending', 'verified', 'enabled'],
  ['pending', 'verification-failed', 'pending'],
  ['pending', 'disable', 'disabled'],
  ['pending', 'enable', 'pending'],
  ['pending', 'url-changed', 'pending'],
  ['enabled', 'verified', 'enabled'],
  ['enabled', 'verification-failed', 'enabled'],
  ['enabled', 'disable', 'disabled'],
  ['enabled', 'enable', 'enabled'],
  ['enabled', 'url-changed', 'pending'],
  ['disabled', 'verified', 'disabled'],
  ['disabled', 'verification-failed', 'disabled'],
  ['disabled', 'disable', 'disabled'],
  ['disabled', 'enable', 'pending'],
  ['disabled', 'url-changed', 'disabled'],
];

describe('transitionRegistration', () => {
  test.each(table)('%s + %s → %s', (state, action, next) => {
    expect(transitionRegistration(state, action)).toBe(next);
  });

  test('the only way to enabled is a handshake from pending', () => {
    const toEnabled = table.filter(([state, , next]) => state !== 'enabled' && next === 'enabled');
    expect(toEnabled).toEqual([['pending', 'verified', 'enabled']]);
  });
});
