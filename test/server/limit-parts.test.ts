import { describe, expect, test } from 'vitest';
import { createByteCache } from '../../src/server/build/byte-cache.js';
import { rateKeyOf } from '../../src/server/http/client-address.js';
import { createRateLimiter } from '../../src/server/http/rate-limit.js';
import { createRepeatWindow } from '../../src/server/http/repeat-window.js';
import { DEFAULT_LIMITS, resolveLimits } from '../../src/server/http/limits.js';
import { createPkpassCache } from '../../src/server/build/pkpass-cache.js';

describe('createRateLimiter', () => {
  test('a burst of perMinute, then one request each 60/perMinute seconds, with the wait in Retry-After seconds', () => {
    const limiter = createRateLimiter({ perMinute: 6 });
    const at = 1_000_000;
    expect(Array.from({ length: 6 }, () => limiter.take('a', at).allowed)).toEqual([true, true, true, true, true, true]);
    expect(limiter.take('a', at)).toEqual({ allowed: false, retryAfterSeconds: 10 });
    expect(limiter.take('a', at + 4_000)).toEqual({ allowed: false, retryAfterSeconds: 6 });
    expect(limiter.take('a', at + 10_000)).toEqual({ allowed: true });
    // Another key has its own bucket.
    expect(limiter.take('b', at).allowed).toBe(true);
  });

  test('a burst smaller than the rate', () => {
    const limiter = createRateLimiter({ perMinute: 60, burst: 2 });
    expect([limiter.take('a', 0).allowed, limiter.take('a', 0).allowed, limiter.take('a', 0).allowed]).toEqual([true, true, false]);
  });

  test('keeps at most maxKeys buckets, forgetting the least recently used', () => {
    const limiter = createRateLimiter({ perMinute: 1 }, { maxKeys: 2 });
    limiter.take('a', 0);
    limiter.take('b', 0);
    expect(limiter.take('a', 0).allowed).toBe(false);
    limiter.take('c', 0); // forgets b, the least recently used
    expect(limiter.size).toBe(2);
    expect(limiter.take('b', 0).allowed).toBe(true);
    for (let index = 0; index < 10_000; index++) limiter.take(`k${index}`, 0);
    expect(limiter.size).toBe(2);
  });

  test('forgets a bucket once it would be full again: memory follows the keys used lately, the answers unchanged', () => {
    const limiter = createRateLimiter({ perMinute: 60, burst: 2 }); // full again 2 s after its last use
    limiter.take('a', 0);
    limiter.take('a', 0);
    limiter.take('b', 0);
    limiter.take('c', 1000);
    expect(limiter.size).toBe(3);
    limiter.take('d', 2500); // a and b, unused for 2.5 s, are forgotten; c (1.5 s) is kept
    expect(limiter.size).toBe(2);
    expect([limiter.take('a', 2500).allowed, limiter.take('a', 2500).allowed, limiter.take('a', 2500).allowed]).toEqual([true, true, false]);
  });

  test('a rate of 0 or a burst under 1 is a RangeError', () => {
    expect(() => createRateLimiter({ perMinute: 0 })).toThrow(RangeError);
    expect(() => createRateLimiter({ perMinute: 5, burst: 0 })).toThrow(RangeError);
  });
});

describe('createRepeatWindow', () => {
  test('a key is a repeat within the window, new after it; a window of 0 never repeats', () => {
    const window = createRepeatWindow({ windowMs: 1000 });
    expect([window.repeated('a', 0), window.repeated('a', 999), window.repeated('a', 1000), window.repeated('a', 1500)]).toEqual([false, true, false, true]);
    const off = createRepeatWindow({ windowMs: 0 });
    expect([off.repeated('a', 0), off.repeated('a', 0)]).toEqual([false, false]);
  });

  test('keeps at most maxKeys keys: the oldest is forgotten', () => {
    const window = createRepeatWindow({ windowMs: 60_000, maxKeys: 2 });
    window.repeated('a', 0);
    window.repeated('b', 1);
    window.repeated('c', 2);
    expect([window.repeated('b', 3), window.repeated('c', 3), window.repeated('a', 3)]).toEqual([true, true, false]);
  });
});

describe('createByteCache', () => {
  test('holds at most maxBytes, the least recently used first out; another version is a miss', () => {
    const cache = createByteCache<string>({ maxBytes: 10 });
    cache.set('a', '1', 'A', 4);
    cache.set('b', '1', 'B', 4);
    expect(cache.get('a', '1')).toBe('A'); // a is now the most recently used
    cache.set('c', '1', 'C', 4); // b goes
    expect([cache.get('a', '1'), cache.get('b', '1'), cache.get('c', '1'), cache.bytes]).toEqual(['A', undefined, 'C', 8]);
    expect(cache.get('a', '2')).toBeUndefined();
    cache.set('a', '2', 'A2', 5);
    expect([cache.get('a', '1'), cache.get('a', '2'), cache.bytes]).toEqual([undefined, 'A2', 9]);
    // A value larger than the bound is not kept.
    cache.set('big', '1', 'X', 11);
    expect([cache.get('big', '1'), cache.size]).toEqual([undefined, 2]);
  });
});

describe('resolveLimits', () => {
  test('the defaults, with the given limits over them; a negative, NaN or unknown limit is a RangeError', () => {
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ ratePerToken: 0, trustProxy: true })).toEqual({ ...DEFAULT_LIMITS, ratePerToken: 0, trustProxy: true });
    expect(() => resolveLimits({ ratePerAddress: -1 })).toThrow(RangeError);
    expect(() => resolveLimits({ maxTemplateFiles: Number.NaN })).toThrow(RangeError);
    expect(() => resolveLimits({ nope: 1 } as never)).toThrow(RangeError);
  });
});

describe('createPkpassCache', () => {
  test('one signing per version, shared by concurrent requests; a new version signs again; a failure is not kept', async () => {
    const cache = createPkpassCache(1024);
    let made = 0;
    const make = async () => new Uint8Array([++made]);
    const [a, b] = await Promise.all([cache.get('pass', 'v1', make), cache.get('pass', 'v1', make)]);
    expect([a, b, made]).toEqual([new Uint8Array([1]), new Uint8Array([1]), 1]);
    expect(await cache.get('pass', 'v1', make)).toEqual(new Uint8Array([1]));
    expect(await cache.get('pass', 'v2', make)).toEqual(new Uint8Array([2]));
    await expect(cache.get('other', 'v1', () => Promise.reject(new Error('no signer')))).rejects.toThrow('no signer');
    expect(await cache.get('other', 'v1', make)).toEqual(new Uint8Array([3]));
  });
});

describe('rateKeyOf', () => {
  test('IPv4 as it is (also IPv4-mapped); IPv6 by its /64, however it is written', () => {
    expect(rateKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(rateKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateKeyOf('2001:db8:1:2:aaaa::7')).toBe('2001:db8:1:2::/64');
    expect(rateKeyOf('2001:0DB8:0001:0002:ffff:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(rateKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateKeyOf('::1')).toBe('0:0:0:0::/64');
  });
});
