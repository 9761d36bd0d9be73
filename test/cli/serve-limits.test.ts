import { describe, expect, test } from 'vitest';
import { parseWithEnvironment } from '../../src/cli/env-options.js';
import { LIMIT_SERVE_OPTIONS, readLimitOptions } from '../../src/cli/serve-limits.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { resolveLimits } from '../../src/server/http/limits.js';

const read = (args: string[], env: Record<string, string> = {}) => readLimitOptions(parseWithEnvironment(args, LIMIT_SERVE_OPTIONS, env));

describe('passmint serve limit options', () => {
  test('flags and PASSMINT_ variables become createServer limits (megabytes in bytes); the flag wins', () => {
    const limits = read(['--max-registrations-per-pass', '5', '--rate-per-token', '0', '--max-template-mb', '8', '--trust-proxy'], {
      PASSMINT_RATE_PER_ADDRESS: '120',
      PASSMINT_MAX_REGISTRATIONS_PER_PASS: '9',
    });
    expect(resolveLimits(limits)).toMatchObject({
      maxRegistrationsPerPass: 5,
      ratePerToken: 0,
      ratePerAddress: 120,
      maxTemplateBytes: 8 * 1024 * 1024,
      maxTemplateFiles: 64,
      trustProxy: true,
    });
  });

  test('nothing given: the defaults', () => {
    expect(resolveLimits(read([]))).toEqual(resolveLimits());
  });

  test('a value that is not a whole number, or a template limit of 0, is a usage error naming the option', () => {
    expect(() => read(['--rate-per-address', '-1'])).toThrow(UsageError);
    expect(() => read(['--rate-per-address', 'ten'])).toThrow(/--rate-per-address/);
    expect(() => read(['--max-template-files', '0'])).toThrow(/--max-template-files is a whole number of at least 1/);
  });
});
