import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { JobProgress } from '../components/JobProgress.js';
import { ErrorNote, Loading } from '../components/Notes.js';
import { TemplatePicker } from '../components/TemplatePicker.js';
import { getJson } from '../lib/api.js';
import { csvRows } from '../lib/csv.js';
import { can } from '../lib/session.js';
import { allTemplates } from '../lib/templates.js';
import { useLoad } from '../lib/use-load.js';

const PREVIEW_ROWS = 5;
/** The preview reads the start of the file only: a large file is not read whole into the page. */
const PREVIEW_BYTES = 256 * 1024;

interface Chosen {
  readonly file: File;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** Choose a CSV, see its first rows under the template's placeholders, start the import, follow the job. */
export function ImportPage(): JSX.Element {
  const templates = useLoad(allTemplates, []);
  const [templateId, setTemplateId] = useState('');
  const [chosen, setChosen] = useState<Chosen | undefined>(undefined);
  const [mode, setMode] = useState<'create' | 'upsert'>('create');
  const [jobId, setJobId] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  if (!can('passes')) {
    return (
      <>
        <h1 tabIndex={-1}>Import</h1>
        <p class="notice">Importing makes passes: your key cannot.</p>
      </>
    );
  }
  const list = templates.data ?? [];
  const template = list.find((item) => String(item.id) === templateId) ?? list[0];
  const placeholders = template?.placeholder ?? [];
  const header = chosen?.header ?? [];
  const unknown = header.filter((column) => column !== 'serialNumber' && !placeholders.includes(column));
  const missing = placeholders.filter((name) => !header.includes(name));
  const choose = (event: Event): void => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    setJobId(undefined);
    setError(undefined);
    if (file === undefined) {
      setChosen(undefined);
      return;
    }
    void file
      .slice(0, PREVIEW_BYTES)
      .text()
      .then((text) => {
        const [first = [], ...rows] = csvRows(text, PREVIEW_ROWS + 1);
        setChosen({ file, header: first.map((column) => column.trim()), rows });
      }, setError);
  };
  const start = (): void => {
    if (template === undefined || chosen === undefined) return;
    setBusy(true);
    setError(undefined);
    getJson<{ id: string }>(`/v1/templates/${template.id}/imports${mode === 'upsert' ? '?mode=upsert' : ''}`, {
      method: 'POST',
      body: chosen.file,
      contentType: 'text/csv',
    })
      .then((job) => setJobId(job.id), setError)
      .finally(() => setBusy(false));
  };
  return (
    <>
      <h1 tabIndex={-1}>Import</h1>
      <p class="note">A CSV with a header row: one column per placeholder, and optionally serialNumber.</p>
      {templates.loading ? <Loading /> : null}
      <ErrorNote error={templates.error} />
      {list.length === 0 && !templates.loading ? <p class="note">Make a template first.</p> : null}
      {list.length === 0 ? null : (
        <div class="import-form">
          <TemplatePicker templates={list} value={String(template?.id ?? '')} onChange={setTemplateId} id="import-template" />
          <div class="field-row">
            <label for="import-file">CSV file</label>
            <input id="import-file" type="file" accept=".csv,text/csv" onChange={choose} data-testid="import-file" />
          </div>
          <fieldset class="field-row">
            <legend>Rows naming an existing serial number</legend>
            <label>
              <input type="radio" name="mode" checked={mode === 'create'} onChange={() => setMode('create')} /> fail (every row a new pass)
            </label>
            <label>
              <input type="radio" name="mode" checked={mode === 'upsert'} onChange={() => setMode('upsert')} /> change that pass
            </label>
          </fieldset>
        </div>
      )}
      {chosen === undefined ? null : (
        <section class="panel" aria-labelledby="import-preview-title">
          <h2 id="import-preview-title">The first rows</h2>
          {unknown.length === 0 ? null : (
            <p class="error-note" role="alert" data-testid="unknown-columns">
              Not placeholders of this template (the service refuses the file): {unknown.join(', ')}
            </p>
          )}
          {missing.length === 0 ? null : (
            <p class="warning-note" data-testid="missing-columns">
              No column for: {missing.join(', ')}
            </p>
          )}
          <div class="table-scroll" tabIndex={0} role="region" aria-label="The first rows">
            <table data-testid="import-preview">
              <thead>
                <tr>
                  {header.map((column, index) => (
                    <th key={index} scope="col" class={unknown.includes(column) ? 'bad' : undefined}>
                      {column}
                      {unknown.includes(column) ? ' (unknown)' : ''}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {chosen.rows.map((row, rowIndex) => (
                  <tr key={rowIndex}>
                    {header.map((_column, index) => (
                      <td key={index} class="wrap">
                        {row[index] ?? ''}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="actions">
            <button type="button" class="primary" onClick={start} disabled={busy || unknown.length > 0} data-testid="import-start">
              Start the import
            </button>
          </p>
        </section>
      )}
      <ErrorNote error={error} />
      {jobId === undefined ? null : <JobProgress key={jobId} jobId={jobId} label="Import" />}
    </>
  );
}
