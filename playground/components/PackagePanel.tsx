import { computed, signal } from '@preact/signals';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Issue } from '../../src/index.js';
import { imageFiles } from '../images.js';
import { stringsFiles } from '../localization-state.js';
import { downloadBytes } from '../lib/download.js';
import { build } from '../state.js';

// The credentials live in these signals and nowhere else: not in the share link,
// not in storage, not in any request. Closing the tab forgets them.
type Secret = { readonly name: string; readonly value: string | Uint8Array } | undefined;
const certificate = signal<Secret>(undefined);
const privateKey = signal<Secret>(undefined);
const wwdr = signal<Secret>(undefined);
const passphrase = signal('');
const status = signal<{ kind: 'idle' | 'working' | 'done' | 'failed'; message: string; issues: readonly Issue[] }>({ kind: 'idle', message: '', issues: [] });

const PKPASS = 'application/vnd.apple.pkpass';

function fileName(pass: unknown): string {
  const serial = typeof pass === 'object' && pass !== null ? (pass as { serialNumber?: unknown }).serialNumber : undefined;
  return `${typeof serial === 'string' && /^[\w.-]{1,64}$/.test(serial) ? serial : 'pass'}`;
}

function CredentialInput({
  id,
  label,
  hint,
  target,
  secret = false,
}: {
  id: string;
  label: string;
  hint: string;
  target: typeof certificate;
  secret?: boolean;
}): JSX.Element {
  const current = target.value;
  const [shown, setShown] = useState(false);
  return (
    <div class="credential" data-testid={`credential-${id}`}>
      <label for={`${id}-file`}>{label}</label>
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
      <input
        id={`${id}-file`}
        type="file"
        aria-describedby={`${id}-hint`}
        onChange={async (event) => {
          const file = event.currentTarget.files?.[0];
          if (file !== undefined) target.value = { name: file.name, value: new Uint8Array(await file.arrayBuffer()) };
        }}
      />
      {/* Each box named for its file ("or paste PEM: Private key"), not three boxes of one name. */}
      <label class="sub-label" for={`${id}-pem`}>
        or paste PEM<span class="visually-hidden">: {label}</span>
      </label>
      <textarea
        id={`${id}-pem`}
        class={secret && !shown ? 'masked' : undefined}
        rows={2}
        spellcheck={false}
        autocomplete="off"
        placeholder="-----BEGIN …-----"
        value={typeof current?.value === 'string' ? current.value : ''}
        onInput={(event) => {
          const text = event.currentTarget.value;
          target.value = text.trim() === '' ? undefined : { name: 'pasted PEM', value: text };
        }}
      />
      {secret ? (
        <label class="sub-label">
          <input type="checkbox" checked={shown} onChange={(event) => setShown(event.currentTarget.checked)} data-testid={`show-${id}`} /> show the pasted key
        </label>
      ) : null}
      <span class="note" data-testid={`credential-${id}-state`}>
        {current === undefined ? 'not given' : `given: ${current.name}`}
      </span>
    </div>
  );
}

async function sign(): Promise<void> {
  const pass = build.value.pass;
  const [cert, key, intermediate] = [certificate.value, privateKey.value, wwdr.value];
  if (pass === undefined || cert === undefined || key === undefined || intermediate === undefined) return;
  status.value = { kind: 'working', message: 'Signing…', issues: [] };
  const { signPassInPage } = await import('../lib/sign.js');
  const result = await signPassInPage(
    pass,
    { ...imageFiles.value, ...stringsFiles.value },
    { certificate: cert.value, privateKey: key.value, wwdr: intermediate.value, passphrase: passphrase.value },
  );
  if (!result.ok) {
    status.value = { kind: 'failed', message: 'Not signed:', issues: result.issues };
    return;
  }
  downloadBytes(result.bytes, `${fileName(pass)}.pkpass`, PKPASS);
  status.value = {
    kind: 'done',
    message: `Signed for ${result.passTypeIdentifier} (team ${result.teamIdentifier}), ${result.bytes.length.toLocaleString('en')} bytes.`,
    issues: result.warnings,
  };
}

function forget(): void {
  certificate.value = undefined;
  privateKey.value = undefined;
  wwdr.value = undefined;
  passphrase.value = '';
  // The chosen files are still listed by their inputs: empty those too.
  for (const id of ['certificate-file', 'key-file', 'wwdr-file']) {
    const input = document.getElementById(id);
    if (input instanceof HTMLInputElement) input.value = '';
  }
  status.value = { kind: 'idle', message: 'The certificate, key and passphrase are forgotten.', issues: [] };
}

async function downloadUnsigned(): Promise<void> {
  const pass = build.value.pass;
  if (pass === undefined) return;
  const { unsignedBundle } = await import('../lib/unsigned-bundle.js');
  downloadBytes(await unsignedBundle(pass, { ...imageFiles.value, ...stringsFiles.value }), `${fileName(pass)}-unsigned.zip`, 'application/zip');
}

// Whether there is a pass to pack: the panel re-renders when that changes, not on every keystroke.
const hasPass = computed(() => build.value.pass !== undefined);

/** Signed .pkpass with the person's own certificate, or the unsigned bundle. */
export function PackagePanel(): JSX.Element {
  const pass = hasPass.value ? true : undefined;
  const ready = certificate.value !== undefined && privateKey.value !== undefined && wwdr.value !== undefined;
  const { kind, message, issues } = status.value;
  return (
    <div class="package" data-testid="package-panel">
      <p class="privacy" data-testid="privacy-note">
        <strong>Your certificate and key stay in this page.</strong> They are held in memory only — never put in the link, never saved in the browser's storage,
        never sent in any request — and signing runs here, with Web Crypto. Reloading or closing the tab forgets them.
      </p>
      <details class="explain">
        <summary>Why sign, and without a certificate?</summary>
        <p>
          Wallet opens only passes signed with a <em>Pass Type ID certificate</em> from an Apple Developer account (Certificates, Identifiers &amp; Profiles →
          Pass Type IDs), chained to Apple's WWDR intermediate (G4: <code>https://www.apple.com/certificateauthority/AppleWWDRCAG4.cer</code>). Its UID must
          equal the pass's <code>passTypeIdentifier</code> (the template's <code>passType</code>) and its OU the team identifier. This page does not read a{' '}
          <code>.p12</code>: turn the one Keychain Access exports into the two PEM files with <code>passmint cert Certificates.p12 -o keys/</code> (or{' '}
          <code>openssl pkcs12 -legacy -in Certificates.p12 -clcerts -nokeys -out pass.pem</code> and <code>… -nocerts -out key.pem</code>).
        </p>
        <p>
          Without a certificate, download the <strong>unsigned bundle</strong>: a zip of pass.json, the images and manifest.json — the files a signature would
          cover. Wallet will not open it, but the inspector reads it, and <code>passmint pack</code> or Apple's <code>signpass</code> can sign it later.
        </p>
      </details>
      <div class="credentials">
        <CredentialInput id="certificate" label="Pass Type ID certificate" hint="PEM or DER (.pem, .cer)" target={certificate} />
        <CredentialInput id="key" label="Private key" hint="PEM or DER; PKCS #8, PKCS #1 or encrypted PKCS #8" target={privateKey} secret />
        <CredentialInput id="wwdr" label="Apple WWDR intermediate" hint="PEM or DER (AppleWWDRCAG4.cer)" target={wwdr} />
        <div class="credential">
          <label for="passphrase">Key passphrase (if the key is encrypted)</label>
          <input
            id="passphrase"
            type="password"
            autocomplete="off"
            value={passphrase.value}
            onInput={(event) => (passphrase.value = event.currentTarget.value)}
          />
        </div>
      </div>
      <div class="toolbar">
        <button type="button" data-testid="sign" disabled={!ready || pass === undefined || kind === 'working'} onClick={() => void sign()}>
          Sign and download .pkpass
        </button>
        <button type="button" data-testid="download-unsigned" disabled={pass === undefined} onClick={() => void downloadUnsigned()}>
          Download unsigned bundle
        </button>
        <button
          type="button"
          data-testid="forget-keys"
          disabled={certificate.value === undefined && privateKey.value === undefined && wwdr.value === undefined && passphrase.value === ''}
          onClick={forget}
        >
          Forget the keys
        </button>
        {pass === undefined ? (
          <span class="note">Fix the template's errors first.</span>
        ) : ready ? null : (
          <span class="note">Signing needs all three files.</span>
        )}
      </div>
      <div role="status" class={`sign-status ${kind}`} data-testid="sign-status" data-kind={kind}>
        {message}
        {issues.length === 0 ? null : (
          <ul>
            {issues.map((issue, index) => (
              <li key={index} class={issue.severity} data-code={issue.code}>
                <code>{issue.code}</code> {issue.message}
                {issue.path === '' ? '' : ` (${issue.path})`}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
