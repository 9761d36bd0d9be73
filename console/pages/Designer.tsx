import { batch } from '@preact/signals';
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Editor } from '../../playground/components/lazy.js';
import { IssuesList } from '../../playground/components/IssuesList.js';
import { PassPreview } from '../../playground/components/PassPreview.js';
import { ValuesForm } from '../../playground/components/ValuesForm.js';
import { replaceImages } from '../../playground/images.js';
import { parsed, setText, text, values } from '../../playground/state.js';
import { ErrorNote, Loading, When } from '../components/Notes.js';
import { PassDiff } from '../components/PassDiff.js';
import { call, getJson } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { can } from '../lib/session.js';
import { templateImages } from '../lib/service-images.js';
import type { Template } from '../lib/templates.js';
import { useLoad } from '../lib/use-load.js';
import { adoptCodeMirrorStyles } from '../lib/adopted-styles.js';
import { JobProgress } from '../components/JobProgress.js';

adoptCodeMirrorStyles();

/** The stored template as the editor shows it: with its id (a template's checks need one), without the answer's warnings. */
function editorText(template: Template): string {
  const { warnings: _warnings, ...rest } = template;
  return `${JSON.stringify(rest, null, 2)}\n`;
}

interface Version {
  readonly version: number;
  readonly created: string;
  readonly filesChanged?: boolean;
  readonly passes?: number;
}

interface Versions {
  readonly version: number;
  readonly versions: readonly Version[];
  readonly unversioned?: number;
}

function Versions({ id, round }: { id: number; round: number }): JSX.Element {
  const { data, error } = useLoad(() => getJson<Versions>(`/v1/templates/${id}/versions`), [id, round]);
  return (
    <section class="panel" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      <ErrorNote error={error} what="Template versions" />
      {data === undefined ? null : data.versions.length === 0 ? (
        <p class="note">No versions yet.</p>
      ) : (
        <ol class="plain" data-testid="template-versions">
          {data.versions.map((version) => (
            <li key={version.version}>
              Version {version.version}
              {version.version === data.version ? ' (current)' : ''}, <When at={version.created} />
              {version.filesChanged === true ? ', images changed' : ''}
              {typeof version.passes === 'number' ? ` — ${version.passes} pass${version.passes === 1 ? '' : 'es'} at it` : ''}
            </li>
          ))}
        </ol>
      )}
      {typeof data?.unversioned === 'number' && data.unversioned > 0 ? (
        <p class="note">{data.unversioned} passes were made before versions were kept.</p>
      ) : null}
    </section>
  );
}

interface DryRun {
  readonly passes?: number;
  readonly changed?: number;
  readonly unchanged?: number;
  readonly failed?: number;
  readonly estimated?: boolean;
  readonly example?: { serialNumber: string; before: unknown; after: unknown } | null;
  readonly [member: string]: unknown;
}

function Publish({ id, onPublished }: { id: number; onPublished: () => void }): JSX.Element {
  const [dry, setDry] = useState<DryRun | undefined>(undefined);
  const [jobId, setJobId] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const check = (): void => {
    setBusy(true);
    setError(undefined);
    setJobId(undefined);
    getJson<DryRun>(`/v1/templates/${id}/publish?dryRun=true`, { method: 'POST' })
      .then(setDry, setError)
      .finally(() => setBusy(false));
  };
  const publish = (): void => {
    setBusy(true);
    setError(undefined);
    getJson<{ id: string }>(`/v1/templates/${id}/publish`, { method: 'POST' })
      .then((job) => {
        setDry(undefined);
        setJobId(job.id);
        onPublished();
      }, setError)
      .finally(() => setBusy(false));
  };
  const count = dry === undefined ? undefined : (dry.changed ?? dry.passes);
  return (
    <section class="panel" aria-labelledby="publish-title">
      <h2 id="publish-title">Publish to the passes</h2>
      <p class="note">Rebuilds every pass made from this template with the saved version and pushes the change to the phones holding them.</p>
      <button type="button" onClick={check} disabled={busy} data-testid="publish-check">
        Check what publishing changes
      </button>
      <ErrorNote error={error} what="Publishing" />
      {dry === undefined ? null : (
        <div data-testid="publish-dry-run">
          <p>
            <strong>{count ?? 0}</strong> pass{count === 1 ? '' : 'es'} would change
            {typeof dry.unchanged === 'number' ? `, ${dry.unchanged} would stay as they are` : ''}
            {typeof dry.failed === 'number' && dry.failed > 0 ? `, ${dry.failed} no longer render and would keep their version` : ''}
            {dry.estimated === true ? ' (estimated from the oldest passes)' : ''}.
          </p>
          {dry.example === undefined || dry.example === null ? null : (
            <PassDiff serial={dry.example.serialNumber} before={dry.example.before} after={dry.example.after} />
          )}
          <button type="button" class="primary" onClick={publish} disabled={busy} data-testid="publish-confirm">
            Publish to {count ?? 0} pass{count === 1 ? '' : 'es'}
          </button>
        </div>
      )}
      {jobId === undefined ? null : <JobProgress jobId={jobId} label="Publishing" />}
    </section>
  );
}

const SLOTS = ['icon', 'logo', 'strip', 'thumbnail', 'background', 'footer'] as const;

/** The template's images: the files the service holds, and a PNG added or replaced in a slot (a new version). */
function Images({ id, onChanged }: { id: number; onChanged: () => void }): JSX.Element {
  const [round, setRound] = useState(0);
  const files = useLoad(() => getJson<{ items: { path: string; size: number }[] }>(`/v1/templates/${id}/files`), [id, round]);
  const [error, setError] = useState<unknown>(undefined);
  const [status, setStatus] = useState('');
  const upload = (event: SubmitEvent): void => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const slot = (form.elements.namedItem('slot') as HTMLSelectElement).value;
    const scale = (form.elements.namedItem('scale') as HTMLSelectElement).value;
    const file = (form.elements.namedItem('image') as HTMLInputElement).files?.[0];
    if (file === undefined) return;
    const path = `${slot}${scale === '1' ? '' : `@${scale}x`}.png`;
    setError(undefined);
    setStatus('');
    call(`/v1/templates/${id}/files/${path}`, { method: 'PUT', body: file, contentType: 'application/octet-stream' }).then(() => {
      form.reset();
      setStatus(`Saved ${path}.`);
      setRound((n) => n + 1);
      void templateImages(id).then(replaceImages);
      onChanged();
    }, setError);
  };
  return (
    <section class="panel" aria-labelledby="images-title">
      <h2 id="images-title">Images</h2>
      <ErrorNote error={files.error} />
      {files.data === undefined ? null : (
        <p class="wrap" data-testid="template-files">
          {files.data.items.length === 0
            ? 'No files: Wallet needs at least icon.png.'
            : files.data.items.map((file) => `${file.path} (${file.size} bytes)`).join(', ')}
        </p>
      )}
      {can('admin') ? (
        <form class="inline-form" onSubmit={upload}>
          <label for="image-slot">Slot</label>
          <select id="image-slot" name="slot">
            {SLOTS.map((slot) => (
              <option key={slot} value={slot}>
                {slot}
              </option>
            ))}
          </select>
          <label for="image-scale">Scale</label>
          <select id="image-scale" name="scale">
            <option value="1">@1x</option>
            <option value="2">@2x</option>
            <option value="3">@3x</option>
          </select>
          <label for="image-file">PNG</label>
          <input id="image-file" name="image" type="file" accept="image/png" required />
          <button type="submit">Upload</button>
          <span class="note" role="status">
            {status}
          </span>
          <ErrorNote error={error} />
        </form>
      ) : null}
    </section>
  );
}

/** A stored template in the playground's editor and preview: save makes a new version; publish shows the dry run first. */
export function DesignerPage({ id }: { id: string }): JSX.Element {
  const [round, setRound] = useState(0);
  const [saveError, setSaveError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState('');
  const loaded = useLoad(() => getJson<Template>(`/v1/templates/${encodeURIComponent(id)}`), [id]);
  const template = loaded.data;
  useEffect(() => {
    if (template === undefined) return;
    batch(() => {
      setText(editorText(template));
      // Sample values: each placeholder's own name, so the preview shows where it lands.
      values.value = Object.fromEntries((template.placeholder ?? []).map((name) => [name, { text: name, json: false }]));
    });
    void templateImages(template.id).then(replaceImages);
  }, [template]);
  const admin = can('admin');
  const save = (): void => {
    setSaveError(undefined);
    setSaved('');
    const result = parsed.peek();
    if (!result.ok) {
      setSaveError(new Error(`The text is not JSON: ${result.error.message}`));
      return;
    }
    getJson<Template>(`/v1/templates/${encodeURIComponent(id)}`, { method: 'PUT', json: result.value }).then((stored) => {
      setSaved(`Saved at ${new Date().toLocaleTimeString()}.`);
      setText(editorText(stored));
      setRound((n) => n + 1);
    }, setSaveError);
  };
  return (
    <>
      <p class="crumbs">
        <Link to="/templates">Templates</Link>
      </p>
      <h1 tabIndex={-1}>{template === undefined ? `Template ${id}` : template.name}</h1>
      {loaded.loading && template === undefined ? <Loading /> : null}
      <ErrorNote error={loaded.error} />
      {template === undefined ? null : (
        <>
          <div class="designer">
            <section class="panel designer-editor" aria-labelledby="editor-title">
              <h2 id="editor-title">Template</h2>
              {admin ? null : <p class="note">Your key can read templates, not change them: edits here are not saved.</p>}
              <div class="editor-box">
                <Editor />
              </div>
              {admin ? (
                <p class="actions">
                  <button
                    type="button"
                    class="primary"
                    onClick={save}
                    data-testid="save-template"
                    disabled={text.value === editorText(template) && round === 0}
                  >
                    Save as a new version
                  </button>
                  <span class="note" role="status" data-testid="save-status">
                    {saved}
                  </span>
                </p>
              ) : null}
              <ErrorNote error={saveError} />
              <IssuesList />
            </section>
            <section class="panel designer-preview" aria-labelledby="preview-title">
              <h2 id="preview-title">Preview</h2>
              <PassPreview />
              <h3>Sample values</h3>
              <ValuesForm />
            </section>
          </div>
          <Images id={template.id} onChanged={() => setRound((n) => n + 1)} />
          <Versions id={template.id} round={round} />
          {can('passes') ? <Publish id={template.id} onPublished={() => setRound((n) => n + 1)} /> : null}
        </>
      )}
    </>
  );
}
