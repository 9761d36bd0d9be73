import { describe, expect, test } from 'vitest';
import { acceptsJson } from '../../src/http/accept.js';

describe('acceptsJson', () => {
  test.each([
    [null],
    [''],
    ['*/*'],
    ['application/*'],
    ['application/json'],
    ['Application/JSON'],
    ['application/json; charset=utf-8'],
    ['application/json;q=0.001'],
    ['text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8'],
    ['*/*;q=0, application/json'],
    ['application/*;q=0, application/json;q=1.000'],
    ['text/plain, application/json;Q=0.5'],
    ['nonsense'],
    ['*/json'],
    ['application/json;q=2'],
  ])('%j allows JSON', (header) => {
    expect(acceptsJson(header)).toBe(true);
  });

  test.each([
    ['text/html'],
    ['application/json;q=0'],
    ['application/json;q=0.000'],
    ['application/json; q=0, */*'],
    ['application/*;q=0, */*'],
    ['*/*;q=0'],
    ['application/problem+json'],
    ['application/xml, text/*;q=0.5'],
    ['text/html, application/json;q=2'],
  ])('%j excludes JSON', (header) => {
    expect(acceptsJson(header)).toBe(false);
  });
});
