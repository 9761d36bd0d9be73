import fc from 'fast-check';

/** A webhook secret: any non-empty text, multi-byte and lone surrogates included. */
export const webhookSecret: fc.Arbitrary<string> = fc.string({ minLength: 1, maxLength: 80, unit: 'binary' });

/** A body as text: ASCII, full Unicode (multi-byte UTF-8) or any UTF-16 code units. */
export const textBody: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ maxLength: 300, unit: 'grapheme' }),
  fc.string({ maxLength: 300, unit: 'binary' }),
);

/** A body as raw bytes (not necessarily UTF-8). */
export const binaryBody: fc.Arbitrary<Uint8Array> = fc.uint8Array({ maxLength: 2000 });
