import { describe, expect, test } from 'vitest';
import { MAX_RETRY_AFTER_MS, RETRY_SCHEDULE_MS, nextRetryDelay, parseRetryAfter } from '../../src/webhooks/index.js';

const noJitter = { random: () => 0.5 };
const s = 1000;
const min = 60 * s;
const h = 60 * min;

describe('nextRetryDelay', () => {
  test.each([
    [1, 5 * s],
    [2, 1 * min],
    [3, 5 * min],
    [4, 30 * min],
    [5, 2 * h],
    [6, 6 * h],
    [7, 12 * h],
    [8, 24 * h],
    [9, 24 * h],
    [100, 24 * h],
  ])('after attempt %d waits %d ms (no jitter)', (attempt, delay) => {
    expect(nextRetryDelay(attempt, noJitter)).toBe(delay);
  });

  test('the schedule never gets faster', () => {
    for (let index = 1; index < RETRY_SCHEDULE_MS.length; index++) {
      expect(RETRY_SCHEDULE_MS[index]).toBeGreaterThan(RETRY_SCHEDULE_MS[index - 1] ?? Infinity);
    }
  });

  test('jitter stays within ±10 %: random 0 → −10 %, random → 1 → +10 %', () => {
    expect(nextRetryDelay(1, { random: () => 0 })).toBe(4500);
    expect(nextRetryDelay(1, { random: () => 0.999_999_9 })).toBe(5500);
    expect(nextRetryDelay(2, { random: () => 0.25 })).toBe(57_000);
    for (let run = 0; run < 1000; run++) {
      const delay = nextRetryDelay(4) ?? 0;
      expect(delay).toBeGreaterThanOrEqual(0.9 * 30 * min);
      expect(delay).toBeLessThanOrEqual(1.1 * 30 * min);
    }
  });

  test('jitter can be set, or turned off with 0', () => {
    expect(nextRetryDelay(1, { jitter: 0, random: () => 0 })).toBe(5000);
    expect(nextRetryDelay(1, { jitter: 0.5, random: () => 0 })).toBe(2500);
  });

  test('a Retry-After longer than the schedule wins; a shorter one does not', () => {
    expect(nextRetryDelay(1, { ...noJitter, retryAfterMs: 120 * s })).toBe(120 * s);
    expect(nextRetryDelay(3, { ...noJitter, retryAfterMs: 10 * s })).toBe(5 * min);
    expect(nextRetryDelay(1, { ...noJitter, retryAfterMs: undefined })).toBe(5 * s);
  });

  test('a Retry-After is capped at 24 h', () => {
    expect(nextRetryDelay(1, { ...noJitter, retryAfterMs: 7 * 24 * h })).toBe(MAX_RETRY_AFTER_MS);
    expect(MAX_RETRY_AFTER_MS).toBe(24 * h);
  });

  test('maxAttempts: gives up once that many attempts were made', () => {
    expect(nextRetryDelay(4, { ...noJitter, maxAttempts: 5 })).toBe(30 * min);
    expect(nextRetryDelay(5, { ...noJitter, maxAttempts: 5 })).toBeUndefined();
    expect(nextRetryDelay(1, { ...noJitter, maxAttempts: 1 })).toBeUndefined();
  });

  test('maxAge: gives up when the next attempt would start later than firstAttemptAt + maxAgeMs', () => {
    const firstAttemptAt = 1_000_000;
    const options = { ...noJitter, firstAttemptAt, maxAgeMs: 3 * h };
    // On schedule, attempt 5 starts 36 min 5 s after the first: a 2 h wait still ends before 3 h.
    // Had it started at +1 h, the wait would end just past 3 h: give up.
    expect(nextRetryDelay(4, { ...options, now: () => firstAttemptAt + 1 * h })).toBe(30 * min);
    expect(nextRetryDelay(5, { ...options, now: () => firstAttemptAt + 36 * min + 5 * s })).toBe(2 * h);
    expect(nextRetryDelay(5, { ...options, now: () => firstAttemptAt + 1 * h + 0.001 })).toBeUndefined();
    expect(nextRetryDelay(5, { ...options, firstAttemptAt: new Date(firstAttemptAt), now: () => firstAttemptAt + 1 * h })).toBe(2 * h);
  });

  test.each([0, -1, 1.5, Number.NaN])('refuses attempt %d with invalid-argument', (attempt) => {
    expect(() => nextRetryDelay(attempt)).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
  });

  test('refuses maxAgeMs without firstAttemptAt, and jitter outside [0, 1)', () => {
    expect(() => nextRetryDelay(1, { maxAgeMs: 1000 })).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
    expect(() => nextRetryDelay(1, { jitter: 1 })).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-10-21T07:28:00Z');
  test.each([
    ['120', 120_000],
    ['0', 0],
    [' 5 ', 5000],
    ['Tue, 21 Oct 2025 07:30:00 GMT', 120_000],
    ['Tue, 21 Oct 2025 07:00:00 GMT', 0],
  ])('%j → %d ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  test.each([null, '', '-5', '1.5', 'soon', '2025-10-21T07:30:00Z', 'Tue, 21 Oct 2025 07:30:00 PST'])('%j → undefined', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
