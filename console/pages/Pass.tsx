import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Pass } from '../../src/index.js';
import { PassDrawing, QrCode } from '../components/lazy.js';
import { ErrorNote, Loading, When } from '../components/Notes.js';
import { getJson, type Page, passPath } from '../lib/api.js';
import { type PassRecord, valueText } from '../lib/passes.js';
import { Link } from '../lib/router.js';
import { can } from '../lib/session.js';
import { useLoad } from '../lib/use-load.js';

function ValuesEditor({ pass, onSaved }: { pass: PassRecord; onSaved: () => void }): JSX.Element {
  const names = Object.keys(pass.values);
  const [draft, setDraft] = useState<Record<string, string>>(() => Object.fromEntries(names.map((name) => [name, valueText(pass.values[name])])));
  const [error, setError] = useState<unknown>(undefined);
  const [status, setStatus] = useState('');
  const editable = can('passes');
  const save = (event: SubmitEvent): void => {
    event.preventDefault();
    setError(undefined);
    setStatus('');
    // A value that was not a string stays of its type when its text is still JSON.
    const values = Object.fromEntries(
      names.map((name) => {
        const text = draft[name] ?? '';
        if (typeof pass.values[name] === 'string') return [name, text];
        try {
          return [name, JSON.parse(text) as unknown];
        } catch {
          return [name, text];
        }
      }),
    );
    getJson(`${passPath(pass.passTypeIdentifier, pass.serialNumber)}/values`, { method: 'PUT', json: values }).then(() => {
      setStatus('Saved: the phones holding it are told.');
      onSaved();
    }, setError);
  };
  return (
    <form onSubmit={save} data-testid="values-editor">
      {names.map((name) => (
        <div class="field-row" key={name}>
          <label for={`value-${name}`}>{name}</label>
          <input
            id={`value-${name}`}
            type="text"
            value={draft[name] ?? ''}
            readOnly={!editable}
            data-name={name}
            onInput={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })}
          />
        </div>
      ))}
      {editable ? (
        <p class="actions">
          <button type="submit" class="primary" data-testid="save-values">
            Save values
          </button>
          <span class="note" role="status">
            {status}
          </span>
        </p>
      ) : null}
      <ErrorNote error={error} />
    </form>
  );
}

const ACTIONS = [
  { action: 'void', label: 'Void', explain: 'Wallet shows it as void; this is final.' },
  { action: 'expire', label: 'Expire', explain: 'Wallet shows it as expired.' },
  { action: 'reactivate', label: 'Reactivate', explain: 'Undo the expiry.' },
] as const;

/** Void is final; expire applies to an active pass; reactivate to an expired one. */
function shown(action: string, state: string | undefined): boolean {
  if (state === 'voided') return false;
  if (action === 'reactivate') return state === 'expired';
  return action === 'void' || state !== 'expired';
}

function Lifecycle({ pass, onDone }: { pass: PassRecord; onDone: () => void }): JSX.Element {
  const [error, setError] = useState<unknown>(undefined);
  const [status, setStatus] = useState('');
  const run = (action: string, label: string): void => {
    if (action !== 'reactivate' && !confirm(`${label} pass ${pass.serialNumber}?`)) return;
    setError(undefined);
    getJson(`${passPath(pass.passTypeIdentifier, pass.serialNumber)}/${action}`, { method: 'POST' }).then(() => {
      setStatus(`${label}: done.`);
      onDone();
    }, setError);
  };
  return (
    <div class="actions" data-testid="lifecycle">
      {ACTIONS.filter((item) => shown(item.action, pass.state)).map((item) => (
        <button key={item.action} type="button" onClick={() => run(item.action, item.label)} title={item.explain} data-testid={`pass-${item.action}`}>
          {item.label}
        </button>
      ))}
      <span class="note" role="status" data-testid="lifecycle-status">
        {status}
      </span>
      <ErrorNote error={error} what="Voiding and expiring passes" />
    </div>
  );
}

interface TimelineEntry {
  readonly at: string;
  readonly kind: string;
  readonly summary: string;
  readonly detail?: unknown;
}

function Timeline({ base, round }: { base: string; round: number }): JSX.Element {
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [earlier, setEarlier] = useState<TimelineEntry[]>([]);
  const { data, error, loading } = useLoad(
    () => getJson<Page<TimelineEntry>>(`${base}/timeline?limit=50${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`),
    [base, cursor, round],
  );
  const entries = [...earlier, ...(data?.items ?? [])];
  return (
    <section class="panel" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <p class="note">Made, changed, downloaded, pushed, fetched by Wallet, synced to Google, sent to webhooks: did it reach the phone?</p>
      <ErrorNote error={error} what="The pass's timeline" />
      {loading && entries.length === 0 ? <Loading /> : null}
      {entries.length === 0 && data !== undefined ? <p class="note">Nothing yet.</p> : null}
      {entries.length === 0 ? null : (
        <ol class="timeline" data-testid="timeline">
          {entries.map((entry, index) => (
            <li key={index} data-kind={entry.kind}>
              <When at={entry.at} /> <span class="badge">{entry.kind}</span> {entry.summary}
              {entry.detail === undefined || entry.detail === null ? null : (
                <details>
                  <summary>Detail</summary>
                  <pre class="json">{typeof entry.detail === 'string' ? entry.detail : JSON.stringify(entry.detail, null, 2)}</pre>
                </details>
              )}
            </li>
          ))}
        </ol>
      )}
      {data?.next === null || data === undefined ? null : (
        <button
          type="button"
          onClick={() => {
            setEarlier(entries);
            setCursor(data.next ?? undefined);
          }}
        >
          More
        </button>
      )}
    </section>
  );
}

interface WalletEntry {
  readonly at: string;
  readonly kind: string;
  readonly detail?: { wallet?: string; device?: string; deviceLibraryIdentifier?: string; objectId?: string } | null;
}

/** Who holds the pass, from its timeline's saves and removals (newest first): each Apple device and Google save still there. */
function Holders({ base, round }: { base: string; round: number }): JSX.Element {
  const { data, error } = useLoad(() => getJson<Page<WalletEntry>>(`${base}/timeline?limit=100`), [base, round]);
  const holders = new Map<string, { wallet: string; since: string }>();
  const gone = new Set<string>();
  for (const entry of data?.items ?? []) {
    if (entry.kind !== 'added' && entry.kind !== 'removed') continue;
    const wallet = entry.detail?.wallet ?? 'apple';
    const id = `${wallet}:${entry.detail?.deviceLibraryIdentifier ?? entry.detail?.device ?? entry.detail?.objectId ?? ''}`;
    if (holders.has(id) || gone.has(id)) continue;
    if (entry.kind === 'added') holders.set(id, { wallet, since: entry.at });
    else gone.add(id);
  }
  const apple = [...holders].filter(([, holder]) => holder.wallet !== 'google');
  const google = [...holders].filter(([, holder]) => holder.wallet === 'google');
  return (
    <section class="panel" aria-labelledby="holders-title">
      <h2 id="holders-title">Who holds it</h2>
      <ErrorNote error={error} what="The list of devices and Google saves" />
      {data === undefined ? null : (
        <dl class="facts" data-testid="holders">
          <dt>Apple devices</dt>
          <dd>
            {apple.length === 0
              ? 'none'
              : apple.map(([id, holder]) => (
                  <span key={id} class="wrap">
                    {id.slice(id.indexOf(':') + 1) || 'a device'} (since <When at={holder.since} />){' '}
                  </span>
                ))}
          </dd>
          <dt>Google Wallet saves</dt>
          <dd>{google.length === 0 ? 'none' : String(google.length)}</dd>
        </dl>
      )}
    </section>
  );
}

/** The pass's versions, from its timeline: made, and each change with the version it made. */
function Versions({ base, round, pass }: { base: string; round: number; pass: PassRecord }): JSX.Element {
  const { data, error } = useLoad(() => getJson<Page<TimelineEntry>>(`${base}/timeline?limit=100`), [base, round]);
  const changes = (data?.items ?? []).filter((entry) => ['created', 'updated', 'voided', 'expired', 'message'].includes(entry.kind));
  return (
    <section class="panel" aria-labelledby="pass-versions-title">
      <h2 id="pass-versions-title">Versions</h2>
      <p>
        Version {pass.version}
        {typeof pass.templateVersion === 'number' ? `, from version ${pass.templateVersion} of its template` : ''}.
      </p>
      <ErrorNote error={error} what="The pass's versions" />
      {changes.length === 0 ? null : (
        <ol class="plain" data-testid="pass-versions">
          {changes.map((entry, index) => (
            <li key={index}>
              <When at={entry.at} /> {entry.summary}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** One pass: its drawing, values (edit), lifecycle, share link with a QR code, versions, who holds it, its timeline. */
export function PassPage({ type, serial }: { type: string; serial: string }): JSX.Element {
  const base = passPath(type, serial);
  const [round, setRound] = useState(0);
  const loaded = useLoad(() => getJson<PassRecord>(base), [base, round]);
  const drawing = useLoad(() => getJson<Pass>(`${base}/passjson`), [base, round]);
  const pass = loaded.data;
  const share = pass?.links.share;
  return (
    <>
      <p class="crumbs">
        <Link to="/passes">Passes</Link>
      </p>
      <h1 tabIndex={-1}>
        Pass <span class="wrap">{serial}</span>
      </h1>
      {loaded.loading && pass === undefined ? <Loading /> : null}
      <ErrorNote error={loaded.error} />
      {pass === undefined ? null : (
        <div class="pass-page">
          <section class="panel" aria-labelledby="pass-facts">
            <h2 id="pass-facts">About</h2>
            <dl class="facts" data-testid="pass-facts">
              <dt>Pass type</dt>
              <dd class="wrap">
                <code>{pass.passTypeIdentifier}</code>
              </dd>
              <dt>Template</dt>
              <dd>
                <Link to={`/templates/${pass.templateId}`}>{`#${pass.templateId}`}</Link>
              </dd>
              <dt>Version</dt>
              <dd>{pass.version}</dd>
              {pass.state === undefined ? null : (
                <>
                  <dt>State</dt>
                  <dd data-testid="pass-state">{pass.state}</dd>
                </>
              )}
              <dt>Made</dt>
              <dd>
                <When at={pass.created} />
              </dd>
              <dt>Changed</dt>
              <dd>
                <When at={pass.updated} />
              </dd>
            </dl>
            {can('passes') ? <Lifecycle pass={pass} onDone={() => setRound((n) => n + 1)} /> : null}
          </section>
          <section class="panel" aria-labelledby="pass-drawing-title">
            <h2 id="pass-drawing-title">As Wallet shows it</h2>
            {drawing.data === undefined ? <ErrorNote error={drawing.error} /> : <PassDrawing pass={drawing.data} />}
          </section>
          <section class="panel" aria-labelledby="pass-values-title">
            <h2 id="pass-values-title">Values</h2>
            <ValuesEditor key={`${pass.version}`} pass={pass} onSaved={() => setRound((n) => n + 1)} />
          </section>
          <section class="panel" aria-labelledby="pass-share-title">
            <h2 id="pass-share-title">Share</h2>
            {share === undefined ? (
              <p class="note">
                This service gives no share page for passes.{' '}
                <a href={pass.links.pkpass} rel="noreferrer">
                  Download the pass
                </a>
              </p>
            ) : (
              <>
                <p class="wrap">
                  <a href={share} rel="noreferrer" data-testid="share-link">
                    {share}
                  </a>
                </p>
                <QrCode text={share} />
              </>
            )}
          </section>
          <Versions base={base} round={round} pass={pass} />
          <Holders base={base} round={round} />
          <Timeline base={base} round={round} />
        </div>
      )}
    </>
  );
}
