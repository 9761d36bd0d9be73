import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { signPayload, verifySignature, WebhookError } from '../../src/webhooks/index.js';
import { webHmac } from '../../src/webhooks/hmac/web.js';

const secret = 'whsec_test';
const body = '{"id":"9f1c7d5e-3b0a-4c7e-9a51-2d7f8e6b4c10","type":"pass.created"}';
const hex = createHmac('sha1', secret).update(body).digest('hex');
const good = `sha1=${hex}`;

describe('signPayload', () => {
  test('is sha1= and the 40 lowercase hex digits of HMAC-SHA1', async () => {
    expect(await signPayload(body, secret)).toBe(good);
    expect(good).toMatch(/^sha1=[0-9a-f]{40}$/);
  });

  test('signs a Buffer (a Uint8Array) the same as its text', async () => {
    expect(await signPayload(Buffer.from(body), secret)).toBe(good);
  });

  test.each([[''], [undefined], [42]])('refuses the secret %j with invalid-secret', async (bad) => {
    await expect(signPayload(body, bad as string)).rejects.toMatchObject({ name: 'WebhookError', code: 'invalid-secret' });
  });

  test('refuses a parsed object as body with invalid-argument', async () => {
    await expect(signPayload(JSON.parse(body) as string, secret)).rejects.toMatchObject({ code: 'invalid-argument' });
  });
});

describe('verifySignature', () => {
  test('accepts the right signature, lowercase or uppercase hex', async () => {
    expect(await verifySignature(body, good, secret)).toBe(true);
    expect(await verifySignature(body, `sha1=${hex.toUpperCase()}`, secret)).toBe(true);
  });

  test('rotation: accepts a signature made with any secret of the list', async () => {
    const old = `sha1=${createHmac('sha1', 'old-secret').update(body).digest('hex')}`;
    expect(await verifySignature(body, old, ['new-secret', 'old-secret'])).toBe(true);
    expect(await verifySignature(body, good, ['new-secret', 'old-secret'])).toBe(false);
  });

  const malformed: [string, unknown][] = [
    ['missing (undefined)', undefined],
    ['missing (null)', null],
    ['empty', ''],
    ['no prefix', hex],
    ['prefix only', 'sha1='],
    ['sha256= with a sha1 digest', `sha256=${hex}`],
    ['sha256= with a sha256 digest', `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`],
    ['upper-case prefix', `SHA1=${hex}`],
    ['one hex digit short', good.slice(0, -1)],
    ['one hex digit long', `${good}0`],
    ['non-hex digit', `sha1=${hex.slice(0, -1)}g`],
    ['non-hex at the start', `sha1=z${hex.slice(1)}`],
    ['leading space', ` ${good}`],
    ['trailing space', `${good} `],
    ['space after =', `sha1= ${hex.slice(1)}`],
    ['tab inside', `sha1=${hex.slice(0, 20)}\t${hex.slice(21)}`],
    ['trailing newline', `${good}\n`],
    ['two signatures, comma', `${good},${good}`],
    ['two signatures, comma and space', `${good}, ${good}`],
    ['two signatures, space', `${good} ${good}`],
    ['very long', `sha1=${'a'.repeat(1_000_000)}`],
    ['very long, right digest first', `${good}${'0'.repeat(100_000)}`],
    ['full-width digits', `sha1=${'０'.repeat(40)}`],
    ['not a string (array)', [good]],
    ['not a string (number)', 1],
  ];

  test.each(malformed)('gives false, without throwing, for a header that is %s', async (_, header) => {
    await expect(verifySignature(body, header as string, secret)).resolves.toBe(false);
  });

  test("a well-formed header with another secret's digest gives false, in both implementations", async () => {
    const wrong = createHmac('sha1', 'other').update(body).digest();
    expect(await verifySignature(body, `sha1=${wrong.toString('hex')}`, secret)).toBe(false);
    expect(await webHmac.verifyDigest([secret], body, wrong)).toBe(false);
  });

  test('refuses an empty secret list with invalid-secret, even for a malformed header', async () => {
    const error = await verifySignature(body, 'x', []).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WebhookError);
    expect((error as WebhookError).code).toBe('invalid-secret');
  });
});
