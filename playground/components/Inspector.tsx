import { signal } from '@preact/signals';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Inspection } from '../lib/inspect.js';
import { lazyComponent } from '../lib/lazy.js';

const inspection = signal<Inspection | undefined>(undefined);
const busy = signal(false);

const Nothing = (): null => null;
// The report (and verifyPass, readPass behind it) is its own chunk, loaded with the first package.
const Report = lazyComponent<{ inspection: Inspection }>(() => import('./InspectorReport.js').then((module) => module.InspectorReport), Nothing);

async function inspect(file: File | undefined): Promise<void> {
  if (file === undefined) return;
  busy.value = true;
  try {
    const [{ inspectPackage }] = await Promise.all([import('../lib/inspect.js'), Report.preload()]);
    inspection.value = await inspectPackage(file.name, new Uint8Array(await file.arrayBuffer()));
  } finally {
    busy.value = false;
  }
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
        <input id="inspect-file" type="file" accept=".pkpass,.zip,application/vnd.apple.pkpass" data-testid="inspect-file" onChange={(event) => void inspect(event.currentTarget.files?.[0])} />
        <p class="hint">Read and checked in this page; the file is not uploaded.</p>
      </div>
      {busy.value ? <p role="status">Checking…</p> : null}
      {current === undefined ? null : <Report inspection={current} />}
    </div>
  );
}
