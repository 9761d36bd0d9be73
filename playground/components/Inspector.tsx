import { signal } from '@preact/signals';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Inspection } from '../lib/inspect.js';
import { lazyComponent } from '../lib/lazy.js';

const inspection = signal<Inspection | undefined>(undefined);
const busy = signal(false);
// The last package and the trusted root, so giving a root re-checks the same package.
let lastFile: { name: string; bytes: Uint8Array } | undefined;
const root = signal<{ name: string; bytes: Uint8Array } | undefined>(undefined);

const Nothing = (): null => null;
// The report (and verifyPass, readPass behind it) is its own chunk, loaded with the first package.
const Report = lazyComponent<{ inspection: Inspection }>(() => import('./InspectorReport.js').then((module) => module.InspectorReport), Nothing);

async function inspect(file: File | undefined): Promise<void> {
  if (file === undefined) return;
  lastFile = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  await run();
}

async function run(): Promise<void> {
  if (lastFile === undefined) return;
  busy.value = true;
  try {
    const [{ inspectPackage }] = await Promise.all([import('../lib/inspect.js'), Report.preload()]);
    inspection.value = await inspectPackage(lastFile.name, lastFile.bytes, root.value === undefined ? [] : [root.value.bytes]);
  } finally {
    busy.value = false;
  }
}

async function setRoot(file: File | undefined): Promise<void> {
  root.value = file === undefined ? undefined : { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  await run();
}

/** Drop or choose a .pkpass: verifyPass's report, the pass with its own images, its files, and "edit as template". */
export function Inspector(): JSX.Element {
  const [over, setOver] = useState(false);
  const current = inspection.value;
  return (
    <div class="inspector" data-testid="inspector">
      <div
        class={`drop-zone${over ? ' over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          void inspect(event.dataTransfer?.files[0]);
        }}
      >
        <label for="inspect-file">Drop a .pkpass here, or choose one</label>
        <input
          id="inspect-file"
          type="file"
          accept=".pkpass,.zip,application/vnd.apple.pkpass"
          data-testid="inspect-file"
          onChange={(event) => void inspect(event.currentTarget.files?.[0])}
        />
        <p class="hint">Read and checked in this page; the file is not uploaded.</p>
      </div>
      <div class="root-input">
        <label for="inspect-root">Trusted root certificate (optional)</label>
        <input
          id="inspect-root"
          type="file"
          accept=".cer,.crt,.pem,.der"
          data-testid="inspect-root"
          onChange={(event) => void setRoot(event.currentTarget.files?.[0])}
        />
        <p class="hint">
          Without one, the chain is checked up to the WWDR certificate inside the package. Give Apple's root — Apple Root CA,{' '}
          <code>AppleIncRootCertificate.cer</code> from apple.com/certificateauthority, which issued the WWDR intermediates — to check it all the way, as Wallet
          does.
          {root.value === undefined ? '' : ` Using ${root.value.name}.`}
        </p>
      </div>
      {busy.value ? <p role="status">Checking…</p> : null}
      {current === undefined ? null : <Report inspection={current} />}
    </div>
  );
}
