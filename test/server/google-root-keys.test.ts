// The service's cache of Google's callback root keys: fetched at first use,
// kept 6 hours, one fetch for callers at the same moment, a failed fetch
// keeps the keys in hand and is tried again a minute later — never a fetch
// per callback.
import { describe, expect, test } from 'vitest';
import { rootKeySource } from '../../src/server/google/root-keys.js';

const key = (n: number) => ({ keyValue: `key-${n}`, protocolVersion: 'ECv2SigningOnly', keyExpiration: '4102444800000' });

describe('rootKeySource', () => {
  test('given keys are used as they are, nothing is fetched', async () => {
    let fetched = 0;
    const source = rootKeySource([key(1)], { fetch: async () => (fetched++, new Response('{}')) });
    expect(await source()).toEqual([key(1)]);
    expect(fetched).toBe(0);
  });

  test('fetched once for many callers, again after 6 hours; a failure keeps the keys and waits a minute', async () => {
    let now = 1_000_000;
    let fetched = 0;
    let answer: () => Response = () => new Response(JSON.stringify({ keys: [key(fetched)] }));
    const source = rootKeySource(undefined, {
      now: () => now,
      fetch: async () => {
        fetched++;
        return answer();
      },
    });
    const together = await Promise.all([source(), source(), source()]);
    expect(fetched).toBe(1);
    expect(together).toEqual([[key(1)], [key(1)], [key(1)]]);

    now += 5 * 3600_000;
    expect(await source()).toEqual([key(1)]);
    expect(fetched).toBe(1);

    now += 3600_000;
    answer = () => new Response('down', { status: 503 });
    expect(await source()).toEqual([key(1)]);
    expect(fetched).toBe(2);
    now += 30_000;
    expect(await source()).toEqual([key(1)]);
    expect(fetched).toBe(2);
    now += 31_000;
    answer = () => new Response(JSON.stringify({ keys: [key(9)] }));
    expect(await source()).toEqual([key(9)]);
    expect(fetched).toBe(3);
  });

  test('no keys ever had: undefined (the callback answers 503)', async () => {
    const source = rootKeySource(undefined, { fetch: async () => new Response('down', { status: 500 }) });
    expect(await source()).toBeUndefined();
  });
});
