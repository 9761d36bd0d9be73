import { describe, expect, test } from 'vitest';
import { environmentHelp, environmentName, parseWithEnvironment } from '../../src/cli/env-options.js';
import { UsageError } from '../../src/cli/usage-error.js';

const OPTIONS = {
  port: { type: 'string' },
  'public-url': { type: 'string' },
  'allow-private-webhooks': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

describe('options from PASSMINT_* environment variables', () => {
  test('the name is PASSMINT_ and the option in capitals, - as _', () => {
    expect(environmentName('public-url')).toBe('PASSMINT_PUBLIC_URL');
    expect(environmentName('port')).toBe('PASSMINT_PORT');
  });

  test('an option missing from the command line is read from its variable; the command line wins', () => {
    const env = { PASSMINT_PORT: '9000', PASSMINT_PUBLIC_URL: 'https://passes.example.com', PASSMINT_ALLOW_PRIVATE_WEBHOOKS: 'true' };
    expect(parseWithEnvironment([], OPTIONS, env).values).toEqual({ port: '9000', 'public-url': 'https://passes.example.com', 'allow-private-webhooks': true });
    expect(parseWithEnvironment(['--port', '7000'], OPTIONS, env).values['port']).toBe('7000');
  });

  test('a boolean variable is 1/true/yes/on or 0/false/no/off/empty; anything else is a usage error naming it', () => {
    expect(parseWithEnvironment([], OPTIONS, { PASSMINT_ALLOW_PRIVATE_WEBHOOKS: '0' }).values['allow-private-webhooks']).toBeUndefined();
    expect(parseWithEnvironment([], OPTIONS, { PASSMINT_ALLOW_PRIVATE_WEBHOOKS: 'ON' }).values['allow-private-webhooks']).toBe(true);
    expect(() => parseWithEnvironment([], OPTIONS, { PASSMINT_ALLOW_PRIVATE_WEBHOOKS: 'maybe' })).toThrow(UsageError);
    expect(() => parseWithEnvironment([], OPTIONS, { PASSMINT_ALLOW_PRIVATE_WEBHOOKS: 'maybe' })).toThrow('PASSMINT_ALLOW_PRIVATE_WEBHOOKS is 1 or 0');
  });

  test('help is never read from the environment, and an empty text variable counts as unset', () => {
    expect(parseWithEnvironment([], OPTIONS, { PASSMINT_HELP: '1', PASSMINT_PORT: '' }).values).toEqual({});
  });

  test('the help lists one variable per option', () => {
    expect(environmentHelp(OPTIONS)).toBe(
      '  PASSMINT_PORT                    --port\n  PASSMINT_PUBLIC_URL              --public-url\n  PASSMINT_ALLOW_PRIVATE_WEBHOOKS  --allow-private-webhooks\n',
    );
  });
});
