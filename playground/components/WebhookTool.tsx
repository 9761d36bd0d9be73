import type { JSX } from 'preact';
import { body, expectedHeader, mismatchHints, receivedHeader, secret, verified } from '../webhook-state.js';

/** Body + secret → `X-Service-Signature`, and a check of a received header. */
export function WebhookTool(): JSX.Element {
  const result = verified.value;
  return (
    <div class="webhook" data-testid="webhook-tool">
      <label for="webhook-body">Request body (exact bytes)</label>
      <textarea id="webhook-body" rows={5} spellcheck={false} value={body.value} onInput={(event) => (body.value = event.currentTarget.value)} />
      <label for="webhook-secret">Signing secret</label>
      <input id="webhook-secret" type="text" spellcheck={false} value={secret.value} onInput={(event) => (secret.value = event.currentTarget.value)} />
      <label for="webhook-expected">X-Service-Signature</label>
      <output id="webhook-expected" data-testid="webhook-signature" class="signature">
        {expectedHeader.value}
      </output>
      <label for="webhook-received">Received header (to check)</label>
      <input
        id="webhook-received"
        type="text"
        spellcheck={false}
        placeholder="sha1=…"
        value={receivedHeader.value}
        onInput={(event) => (receivedHeader.value = event.currentTarget.value)}
      />
      {result === undefined ? null : (
        <div class={result ? 'verdict ok' : 'verdict bad'} role="status" data-testid="webhook-verdict">
          {result ? 'The signature matches.' : 'The signature does not match.'}
          {result ? null : (
            <ul>
              {mismatchHints(body.value, receivedHeader.value).map((hint) => (
                <li key={hint}>{hint}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
