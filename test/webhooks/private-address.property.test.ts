import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkWebhookUrl, WebhookError } from '../../src/webhooks/index.js';
import { isPrivateAddress } from '../../src/webhooks/private-address.js';
import { RUNS } from '../arbitraries.js';

// The refused IPv4 blocks written out again as [first, last] addresses, so
// the library's prefix arithmetic is checked against plain ranges.
const dotted = (a: number, b: number, c: number, d: number): number => ((a * 256 + b) * 256 + c) * 256 + d;
const refusedRanges: readonly (readonly [number, number])[] = [
  [dotted(0, 0, 0, 0), dotted(0, 255, 255, 255)],
  [dotted(10, 0, 0, 0), dotted(10, 255, 255, 255)],
  [dotted(100, 64, 0, 0), dotted(100, 127, 255, 255)],
  [dotted(127, 0, 0, 0), dotted(127, 255, 255, 255)],
  [dotted(169, 254, 0, 0), dotted(169, 254, 255, 255)],
  [dotted(172, 16, 0, 0), dotted(172, 31, 255, 255)],
  [dotted(192, 0, 0, 0), dotted(192, 0, 0, 255)],
  [dotted(192, 168, 0, 0), dotted(192, 168, 255, 255)],
  [dotted(198, 18, 0, 0), dotted(198, 19, 255, 255)],
  [dotted(224, 0, 0, 0), dotted(255, 255, 255, 255)],
];
const refused = (address: number): boolean => refusedRanges.some(([first, last]) => address >= first && address <= last);

// Addresses near the edges of every block, and anywhere at all.
const edge = fc.constantFrom(...refusedRanges.flatMap(([first, last]) => [first - 1, first, last, last + 1])).filter((n) => n >= 0 && n <= 0xffffffff);
const ipv4 = fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), edge);
const quad = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const hex16 = (n: number): string => n.toString(16);

function verdict(url: string): 'refused' | 'allowed' | 'other' {
  try {
    checkWebhookUrl(url);
    return 'allowed';
  } catch (error) {
    return error instanceof WebhookError && error.code === 'private-address' ? 'refused' : 'other';
  }
}

describe('IPv4 in every spelling the URL parser accepts', () => {
  test('dotted, decimal, hex and octal spellings all get the verdict of the plain ranges', () => {
    fc.assert(
      fc.property(ipv4, (n) => {
        const expected = refused(n) ? 'refused' : 'allowed';
        const octal = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].map((byte) => `0${byte.toString(8)}`).join('.');
        for (const host of [quad(n), String(n), `0x${n.toString(16)}`, octal, `${quad(n)}.`]) {
          expect([host, verdict(`http://${host}/in`)]).toEqual([host, expected]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4) get the same verdict', () => {
    fc.assert(
      fc.property(ipv4, (n) => {
        const expected = refused(n) ? 'refused' : 'allowed';
        const high = hex16(n >>> 16);
        const low = hex16(n & 0xffff);
        for (const host of [`[::ffff:${quad(n)}]`, `[::ffff:${high}:${low}]`, `[64:ff9b::${quad(n)}]`, `[2002:${high}:${low}::1]`]) {
          expect([host, verdict(`http://${host}/in`)]).toEqual([host, expected]);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('IPv6 text', () => {
  const groups = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 });

  test('the full form and the URL parser’s compressed form are classified alike', () => {
    fc.assert(
      fc.property(groups, (parts) => {
        const full = parts.map(hex16).join(':');
        const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
        const expected = isPrivateAddress(full);
        expect(typeof expected).toBe('boolean');
        expect(isPrivateAddress(compressed)).toBe(expected);
        expect(verdict(`http://[${full}]/in`)).toBe(expected === true ? 'refused' : 'allowed');
      }),
      { numRuns: RUNS },
    );
  });
});

describe('any URL text', () => {
  test('checkWebhookUrl returns an http(s) URL or throws WebhookError invalid-url / private-address — nothing else', () => {
    const text = fc.oneof(
      fc.string(),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.tuple(fc.constantFrom('http://', 'https://', 'ftp://', 'http://[', ''), fc.string({ unit: 'binary' })).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(text, (url) => {
        try {
          expect(checkWebhookUrl(url)).toMatch(/^https?:\/\//);
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookError);
          expect(['invalid-url', 'private-address']).toContain((error as WebhookError).code);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('a password in the URL is never in the message, whatever the rest looks like', () => {
    const password = fc.stringMatching(/^[A-Za-z0-9]{6,16}$/).map((text) => `PW_${text}`);
    const host = fc.oneof(fc.domain(), ipv4.map(quad), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(password, host, fc.constantFrom('http', 'https', 'ftp'), fc.boolean(), (secret, name, scheme, allowPrivateNetworks) => {
        try {
          checkWebhookUrl(`${scheme}://user:${secret}@${name}/in`, { allowPrivateNetworks });
          expect.unreachable('credentials must be refused');
        } catch (error) {
          expect(error).toBeInstanceOf(WebhookError);
          expect((error as WebhookError).message).not.toContain(secret);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
