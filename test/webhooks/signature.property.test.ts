import { createHmac, timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { signPayload, verifySignature } from '../../src/webhooks/index.js';
import { nodeHmac } from '../../src/webhooks/hmac/node.js';
import { webHmac } from '../../src/webhooks/hmac/web.js';
import { RUNS } from '../arbitraries.js';
import { binaryBody, textBody, webhookSecret } from './arbitraries.js';

const body = fc.oneof(textBody, binaryBody);

function reference(secret: string, payload: string | Uint8Array): string {
  return `sha1=${createHmac('sha1', Buffer.from(secret, 'utf8')).update(payload).digest('hex')}`;
}

function flipOneByte(bytes: Uint8Array, index: number, xor: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[index % copy.length] = (copy[index % copy.length] ?? 0) ^ xor;
  return copy;
}

describe('signatures (property)', () => {
  test('signPayload equals node:crypto createHmac("sha1") on any body and secret', async () => {
    await fc.assert(
      fc.asyncProperty(webhookSecret, body, async (secret, payload) => {
        expect(await signPayload(payload, secret)).toBe(reference(secret, payload));
      }),
      { numRuns: RUNS },
    );
  });

  test('the web and node implementations agree byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(webhookSecret, body, async (secret, payload) => {
        const fromNode = await nodeHmac.signHex(secret, payload);
        const fromWeb = await webHmac.signHex(secret, payload);
        expect(fromWeb).toBe(fromNode);
        const digest = Buffer.from(fromNode, 'hex');
        expect(await webHmac.verifyDigest([secret], payload, digest)).toBe(true);
        expect(await nodeHmac.verifyDigest([secret], payload, digest)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  test('a signature verifies, in either hex case, and one changed body byte makes it fail', async () => {
    await fc.assert(
      fc.asyncProperty(
        webhookSecret,
        binaryBody.filter((bytes) => bytes.length > 0),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (secret, payload, index, xor) => {
          const header = await signPayload(payload, secret);
          expect(await verifySignature(payload, header, secret)).toBe(true);
          expect(await verifySignature(payload, `sha1=${header.slice(5).toUpperCase()}`, secret)).toBe(true);
          expect(await verifySignature(flipOneByte(payload, index, xor), header, secret)).toBe(false);
          expect(await webHmac.verifyDigest([secret], flipOneByte(payload, index, xor), Buffer.from(header.slice(5), 'hex'))).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('one changed signature byte (any of the 20) makes it fail, in both implementations', async () => {
    await fc.assert(
      fc.asyncProperty(webhookSecret, body, fc.nat(19), fc.integer({ min: 1, max: 255 }), async (secret, payload, index, xor) => {
        const digest = Buffer.from((await signPayload(payload, secret)).slice(5), 'hex');
        const changed = flipOneByte(digest, index, xor);
        expect(await verifySignature(payload, `sha1=${Buffer.from(changed).toString('hex')}`, secret)).toBe(false);
        expect(await webHmac.verifyDigest([secret], payload, changed)).toBe(false);
        expect(await nodeHmac.verifyDigest([secret], payload, changed)).toBe(false);
        // The reference comparison agrees that they differ.
        expect(timingSafeEqual(digest, changed)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  test('a string body and its UTF-8 bytes have the same signature', async () => {
    await fc.assert(
      fc.asyncProperty(webhookSecret, textBody, async (secret, text) => {
        expect(await signPayload(text, secret)).toBe(await signPayload(new TextEncoder().encode(text), secret));
      }),
      { numRuns: RUNS },
    );
  });
});
