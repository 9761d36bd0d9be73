import { effect, signal } from '@preact/signals';
import { signPayload, verifySignature } from '../src/webhooks/index.js';

// State of the webhook-signature tool. Kept apart from the pass state and never put
// into a shared link: it holds a signing secret.

export const body = signal<string>(
  '{"id":"1b4e28ba-2fa1-4d3b-a3f5-ef19a0c1f5a1","type":"pass.created","created":"2026-05-07T10:30:00Z","data":{"serialNumber":"E5982H-I2","passTypeIdentifier":"pass.com.example.event"}}',
);
export const secret = signal<string>('whsec_example_secret');
export const receivedHeader = signal<string>('');
/** `sha1=…` for the body and secret; `''` until computed. */
export const expectedHeader = signal<string>('');
/** Whether the received header verifies: `undefined` while nothing is pasted. */
export const verified = signal<boolean | undefined>(undefined);

let run = 0;
effect(() => {
  const currentBody = body.value;
  const currentSecret = secret.value;
  const header = receivedHeader.value;
  const id = ++run;
  void (async () => {
    const signature = await signPayload(currentBody, currentSecret);
    const ok = header.trim() === '' ? undefined : await verifySignature(currentBody, header.trim(), currentSecret);
    if (id !== run) return;
    expectedHeader.value = signature;
    verified.value = ok;
  })().catch(() => {
    if (id === run) expectedHeader.value = '';
  });
});

/**
 * Reasons a signature commonly fails to match, found in what was pasted.
 *
 * @example
 * ```ts
 * mismatchHints('{"a":1}\n', 'sha1=ABC'); // ['The body ends with a line break …', …]
 * ```
 */
export function mismatchHints(text: string, header: string): string[] {
  const hints: string[] = [];
  const value = header.trim();
  if (!/^sha1=/i.test(value)) hints.push('The header must start with "sha1=" (the X-Service-Signature form).');
  else if (!/^sha1=[0-9a-f]{40}$/i.test(value)) hints.push('After "sha1=" there must be exactly 40 hexadecimal characters.');
  if (/\s$/.test(text))
    hints.push('The body ends with whitespace or a line break; the signature covers the exact bytes sent, so an editor or a logger may have added it.');
  if (/^\s/.test(text)) hints.push('The body starts with whitespace; sign and verify the raw request bytes, not a copy.');
  if (/\n\s+"/.test(text))
    hints.push('The body is pretty-printed; the service signs the body as sent — if you re-serialized parsed JSON, verify the raw bytes instead.');
  if (/\\u[0-9a-fA-F]{4}/.test(text)) hints.push('The body holds \\u escapes; a JSON re-encoder may have written them differently than the sender.');
  hints.push('Check the secret: each webhook URL has its own, and a rotated secret signs new deliveries only.');
  return hints;
}
