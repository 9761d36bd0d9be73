import { describe, expect, test } from 'vitest';
import { sameSecret } from '../../src/server/http/same-secret.js';

describe('sameSecret', () => {
  test('true for the very secret, false for any other — a prefix, a longer text, another case, the empty text', () => {
    expect(sameSecret('s3cret-token', 's3cret-token')).toBe(true);
    expect(sameSecret('s3cret', 's3cret-token')).toBe(false);
    expect(sameSecret('s3cret-token-and-more', 's3cret-token')).toBe(false);
    expect(sameSecret('S3CRET-TOKEN', 's3cret-token')).toBe(false);
    expect(sameSecret('', 's3cret-token')).toBe(false);
    expect(sameSecret('é', 'é')).toBe(true);
    expect(sameSecret('e\u0301', 'é')).toBe(false);
  });
});
