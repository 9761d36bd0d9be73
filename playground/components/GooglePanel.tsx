import { signal } from '@preact/signals';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { images } from '../images.js';
import { stringsTables } from '../localization-state.js';
import { build } from '../state.js';

// Like the Apple key: the service-account key lives in this signal only — never in
// the link, never in storage, never in a request. Signing runs in the page.
const serviceKey = signal<{ readonly name: string; readonly json: string } | undefined>(undefined);
const issuerId = signal('');
const imageBase = signal('');
const result = signal<{ kind: 'idle' | 'working' | 'done' | 'failed'; url?: string; message: string; code?: string }>({ kind: 'idle', message: '' });

async function makeLink(): Promise<void> {
  const pass = build.value.pass;
  const key = serviceKey.value;
  if (pass === undefined || key === undefined) return;
  result.value = { kind: 'working', message: 'Signing…' };
  const { makeSaveLink } = await import('../lib/google-view.js');
  const paths = [...new Set([...images.value.keys()].map((path) => path.replace(/@[23]x\.png$/, '.png')))];
  // Each language's pass.strings becomes Google's translatedValues.
  const strings = Object.fromEntries(
    [...stringsTables.value].flatMap(([language, table]) => (table instanceof Map ? [[language, Object.fromEntries(table)] as const] : [])),
  );
  const made = await makeSaveLink(pass, key.json, issuerId.value, imageBase.value, paths, location.origin, strings);
  result.value = made.ok
    ? {
        kind: 'done',
        url: made.url,
        message: `Signed by ${made.clientEmail}. The link holds the class and the object; Google creates them when the pass is saved.`,
      }
    : { kind: 'failed', code: made.code, message: made.message };
}

/** An "Add to Google Wallet" link, signed in the page with the person's service-account key. */
export function GooglePanel(): JSX.Element {
  const [shown, setShown] = useState(false);
  const { kind, url, message, code } = result.value;
  const ready = serviceKey.value !== undefined && /^\d{6,}$/.test(issuerId.value.trim()) && build.value.pass !== undefined;
  return (
    <div class="google-panel" data-testid="google-panel">
      <p class="privacy">
        <strong>The service-account key stays in this page</strong>, like the Apple key: in memory only, never in the link, never in storage, never sent. The
        link is signed here (RS256, Web Crypto).
      </p>
      <div class="credentials">
        <div class="credential">
          <label for="google-key-file">Service-account key (JSON)</label>
          <p class="hint">From Google Cloud: IAM → Service accounts → Keys → Add key → JSON. The account must be a user of your Google Wallet issuer.</p>
          <input
            id="google-key-file"
            type="file"
            accept="application/json,.json"
            onChange={async (event) => {
              const file = event.currentTarget.files?.[0];
              if (file !== undefined) serviceKey.value = { name: file.name, json: await file.text() };
            }}
          />
          <label class="sub-label" for="google-key-pem">
            or paste it
          </label>
          <textarea
            id="google-key-pem"
            rows={2}
            spellcheck={false}
            autocomplete="off"
            class={shown ? undefined : 'masked'}
            value={serviceKey.value?.name === 'pasted' ? serviceKey.value.json : ''}
            onInput={(event) => {
              const text = event.currentTarget.value;
              serviceKey.value = text.trim() === '' ? undefined : { name: 'pasted', json: text };
            }}
          />
          <label class="sub-label">
            <input type="checkbox" checked={shown} onChange={(event) => setShown(event.currentTarget.checked)} /> show the pasted key
          </label>
          <span class="note" data-testid="google-key-state">
            {serviceKey.value === undefined ? 'not given' : `given: ${serviceKey.value.name}`}
          </span>
        </div>
        <div class="credential">
          <label for="google-issuer">Issuer ID</label>
          <p class="hint">Digits, from the Google Pay &amp; Wallet Console.</p>
          <input id="google-issuer" type="text" inputMode="numeric" value={issuerId.value} onInput={(event) => (issuerId.value = event.currentTarget.value)} />
          <label for="google-images">Image base URL (optional)</label>
          <p class="hint">
            Google fetches images from public https URLs: where this pass's images are hosted, e.g. https://passes.example.com/images/. Without it the link
            carries no image.
          </p>
          <input id="google-images" type="url" value={imageBase.value} onInput={(event) => (imageBase.value = event.currentTarget.value)} />
        </div>
      </div>
      <div class="toolbar">
        <button type="button" data-testid="make-google-link" disabled={!ready || kind === 'working'} onClick={() => void makeLink()}>
          Make the Add to Google Wallet link
        </button>
        <button
          type="button"
          disabled={serviceKey.value === undefined}
          onClick={() => {
            serviceKey.value = undefined;
            const input = document.getElementById('google-key-file');
            if (input instanceof HTMLInputElement) input.value = '';
            result.value = { kind: 'idle', message: 'The service-account key is forgotten.' };
          }}
        >
          Forget the key
        </button>
        {ready ? null : <span class="note">Needs the key and the issuer ID.</span>}
      </div>
      <div role="status" class={`sign-status ${kind}`} data-testid="google-status" data-kind={kind} data-code={code}>
        {url === undefined ? null : (
          <p>
            <a class="google-save" href={url} target="_blank" rel="noopener noreferrer" data-testid="google-save-link">
              Add to Google Wallet
            </a>
          </p>
        )}
        {code === undefined ? (
          message
        ) : (
          <>
            <code>{code}</code> {message}
          </>
        )}
      </div>
    </div>
  );
}
