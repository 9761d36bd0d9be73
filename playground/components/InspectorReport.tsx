import type { JSX } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { IMAGE_FILE, IMAGE_NAMES, replaceImages } from '../images.js';
import type { Inspection } from '../lib/inspect.js';
import { loadPassAsTemplate } from '../state.js';
import { type CardImages, PassCard } from './PassCard.js';

const DAY = 86_400_000;

function Expiry({ date }: { date: Date }): JSX.Element {
  const days = Math.floor((date.getTime() - Date.now()) / DAY);
  return (
    <span class={days < 0 ? 'expired' : days < 30 ? 'expiring' : ''}>
      {date.toISOString().slice(0, 10)} ({days < 0 ? `expired ${-days} days ago` : `${days} days left`})
    </span>
  );
}

function useImageUrls(contents: ReadonlyMap<string, Uint8Array>): CardImages {
  const urls = useMemo(() => {
    const found: Record<string, string> = {};
    for (const name of IMAGE_NAMES) {
      const bytes = contents.get(`${name}@3x.png`) ?? contents.get(`${name}@2x.png`) ?? contents.get(`${name}.png`);
      if (bytes !== undefined) found[name] = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
    }
    return found;
  }, [contents]);
  useEffect(
    () => () => {
      for (const url of Object.values(urls)) URL.revokeObjectURL(url);
    },
    [urls],
  );
  return urls;
}

/** verifyPass's report on a package, its pass drawn with its own images, its files, and "edit as template". */
export function InspectorReport({ inspection }: { inspection: Inspection }): JSX.Element {
  const { report, pass, files, contents, name, size } = inspection;
  const images = useImageUrls(contents);
  const [note, setNote] = useState('');
  const errors = report.issues.filter((issue) => issue.severity === 'error');
  const warnings = report.issues.length - errors.length;
  const edit = async (): Promise<void> => {
    if (pass === undefined) return;
    loadPassAsTemplate(pass as unknown as Readonly<Record<string, unknown>>);
    await replaceImages(contents);
    const dropped = [...contents.keys()].filter((path) => !IMAGE_FILE.test(path));
    setNote(`Loaded into the editor, with its images.${dropped.length === 0 ? '' : ` Not taken (the editor has no place for them): ${dropped.join(', ')}.`}`);
    document.getElementById('editor-heading')?.scrollIntoView({ block: 'start' });
  };
  return (
    <div class="inspection" data-testid="inspection" data-ok={String(report.ok)}>
      <p class={`verdict ${report.ok ? 'ok' : 'bad'}`} data-testid="inspection-verdict" role="status">
        <strong>{name}</strong> ({size.toLocaleString('en')} bytes):{' '}
        {report.ok
          ? `valid — Wallet would open it${warnings === 0 ? '' : ` (${warnings} warning${warnings === 1 ? '' : 's'})`}.`
          : `${errors.length} error${errors.length === 1 ? '' : 's'} — Wallet would refuse it.`}
      </p>
      <h3>Signature</h3>
      <p class="hint" data-testid="inspection-chain">
        {report.signer === undefined
          ? 'No chain checked: the package has no signature that could be read.'
          : inspection.rootChecked
            ? 'Chain checked up to the trusted root you gave.'
            : 'Chain checked up to the WWDR in the package (no trusted root given).'}
      </p>
      <dl class="facts" data-testid="inspection-signature">
        <dt>Signed</dt>
        <dd>{report.signingTime === undefined ? 'no readable signature' : `${report.signingTime.toISOString()} with ${report.digest ?? '?'}`}</dd>
        {report.signer === undefined ? null : (
          <>
            <dt>Certificate</dt>
            <dd>
              {report.signer.subject}
              <br />
              pass type <code>{report.signer.passTypeIdentifier ?? '—'}</code>, team <code>{report.signer.teamIdentifier ?? '—'}</code>
              <br />
              valid until <Expiry date={report.signer.notAfter} />
            </dd>
          </>
        )}
        {report.wwdr === undefined ? null : (
          <>
            <dt>WWDR</dt>
            <dd>
              {report.wwdr.subject}
              <br />
              valid until <Expiry date={report.wwdr.notAfter} />
            </dd>
          </>
        )}
      </dl>
      <h3>Issues</h3>
      {report.issues.length === 0 ? <p>None.</p> : null}
      <ul class="inspection-issues" data-testid="inspection-issues">
        {report.issues.map((issue, index) => (
          <li key={index} class={issue.severity} data-code={issue.code}>
            <span class="issue-severity">{issue.severity}</span> <code>{issue.code}</code> {issue.message} <span class="issue-where">{issue.path || '/'}</span>
          </li>
        ))}
      </ul>
      <h3>Files</h3>
      <table class="files" data-testid="inspection-files">
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Bytes</th>
            <th scope="col">manifest.json</th>
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={file.path} data-path={file.path}>
              <td>
                <code>{file.path}</code>
              </td>
              <td>{Number.isNaN(file.size) ? '' : file.size.toLocaleString('en')}</td>
              <td class={file.manifest === 'mismatch' || file.manifest === 'unlisted' ? 'bad' : ''}>
                {{ ok: 'hash matches', mismatch: 'hash differs', unlisted: 'not listed', 'n/a': '—' }[file.manifest]}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {inspection.strings.size === 0 ? null : (
        <>
          <h3>Localizations</h3>
          <ul class="localizations" data-testid="inspection-strings">
            {[...inspection.strings].map(([language, entries]) => (
              <li key={language}>
                <code>{language}</code>: {entries.size} string{entries.size === 1 ? '' : 's'}
                {entries.size === 0
                  ? ''
                  : ` — ${[...entries]
                      .slice(0, 3)
                      .map(([key, text]) => `"${key}" → "${text}"`)
                      .join(', ')}${entries.size > 3 ? ', …' : ''}`}
              </li>
            ))}
          </ul>
        </>
      )}
      {pass === undefined ? (
        <p class="empty">The package could not be opened, so there is no pass to show.</p>
      ) : (
        <>
          <h3>The pass</h3>
          <div class="preview">
            <PassCard pass={pass} images={images} testId="inspected-pass" />
          </div>
          <div class="toolbar">
            <button type="button" data-testid="edit-as-template" onClick={() => void edit()}>
              Edit as template
            </button>
            <span role="status">{note}</span>
          </div>
        </>
      )}
    </div>
  );
}
