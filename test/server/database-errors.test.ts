// Which errors mean "the database is away" (503, back off) and which are a
// statement the database refused (500, reported).
import { describe, expect, test } from 'vitest';
import { isDatabaseUnavailable } from '../../src/server/db/database-errors.js';

const withCode = (code: string, message = 'failed'): Error => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  test.each([
    ['a terminated backend (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['a server starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['a connection exception class (08006)', withCode('08006')],
    ['too many connections (53300)', withCode('53300')],
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET')],
    ["pg's lost connection", new Error('Connection terminated unexpectedly')],
    ["pg's broken client", new Error('Client has encountered a connection error and is not queryable')],
    ["pg's connect timeout", new Error('timeout exceeded when trying to connect')],
    ['a refused dual-stack connect', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')],
    ['a cause', new Error('wrapped', { cause: withCode('57P01') })],
  ])('%s: unavailable', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test.each([
    ['a unique violation (23505)', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error (42601)', withCode('42601')],
    ['an undefined table (42P01)', withCode('42P01')],
    ['a plain error', new Error('something else')],
    ['a string', 'Connection terminated'],
    ['undefined', undefined],
    ['null', null],
  ])('%s: not unavailable', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  test('a cycle of causes ends', () => {
    const error = new Error('a') as Error & { cause?: unknown };
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
