// The log line of an internal error: its fields, the stack only when asked,
// and no secret carried by an error's message into the log.
import { describe, expect, test } from 'vitest';
import { errorLogEntry, withoutSecrets } from '../../src/cli/error-log.js';

const NOW = new Date('2026-03-01T10:00:00.000Z');

describe('errorLogEntry', () => {
  test('name, message, code and where; the stack only with debug', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:443'), { code: 'ECONNREFUSED' });
    const where = { method: 'POST', route: '/v1/passes', requestId: 'r-1' };
    expect(errorLogEntry(error, where, { debug: false, now: NOW })).toEqual({
      time: '2026-03-01T10:00:00.000Z',
      type: 'error',
      level: 'error',
      name: 'Error',
      message: 'connect ECONNREFUSED 10.0.0.5:443',
      code: 'ECONNREFUSED',
      method: 'POST',
      route: '/v1/passes',
      requestId: 'r-1',
    });
    expect(errorLogEntry(error, undefined, { debug: true, now: NOW })['stack']).toBe(error.stack);
    expect(errorLogEntry('just text', undefined, { debug: true, now: NOW })).toEqual({
      time: '2026-03-01T10:00:00.000Z',
      type: 'error',
      level: 'error',
      name: 'string',
      message: 'just text',
    });
  });

  test('secrets in a message or a stack are masked; a long message is cut', () => {
    const error = new Error(
      'failed postgres://passmint:hunter2@db.internal/passmint with Bearer pm_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG at /v1/passes/x?token=tok123&x=1',
    );
    const entry = errorLogEntry(error, undefined, { debug: true, now: NOW });
    expect(entry['message']).toBe('failed postgres://passmint:***@db.internal/passmint with Bearer *** at /v1/passes/x?token=***&x=1');
    expect(String(entry['stack'])).not.toContain('hunter2');
    expect(withoutSecrets('key pm_abcdefghijklmnop and ApplePass 0123456789abcdef')).toBe('key pm_*** and ApplePass ***');
    expect(String(errorLogEntry(new Error('x'.repeat(5000)), undefined, { debug: false, now: NOW })['message'])).toHaveLength(2001);
  });
});
