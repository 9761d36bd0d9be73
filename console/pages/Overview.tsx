import type { JSX } from 'preact';
import { ErrorNote, Loading, TableScroll, When } from '../components/Notes.js';
import { getJson } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { useLoad } from '../lib/use-load.js';

interface WalletCounts {
  readonly apple?: number;
  readonly google?: number;
}
interface Period {
  readonly passesMade?: number;
  readonly downloads?: number;
  readonly added?: WalletCounts;
  readonly removed?: WalletCounts;
  readonly devices?: WalletCounts;
}

const ROWS: readonly (readonly [string, (period: Period) => number | undefined])[] = [
  ['Passes made', (period) => period.passesMade],
  ['Downloads', (period) => period.downloads],
  ['Added to Apple Wallet', (period) => period.added?.apple],
  ['Added to Google Wallet', (period) => period.added?.google],
  ['Removed from Apple Wallet', (period) => period.removed?.apple],
  ['Removed from Google Wallet', (period) => period.removed?.google],
  ['Apple devices holding passes', (period) => period.devices?.apple],
  ['Google saves holding passes', (period) => period.devices?.google],
];
interface Overview {
  readonly templates: readonly { id: number; name: string; passes: number }[];
  readonly today?: Period;
  readonly week?: Period;
  readonly queue?: { dueDeliveries?: number; oldestDueSeconds?: number | null; pushes?: number; googleSyncs?: number };
  readonly certificates?: readonly { passTypeIdentifier: string; teamIdentifier: string; notAfter: string }[];
}

const n = (value: number | undefined | null): string => (typeof value === 'number' ? value.toLocaleString() : '—');

function duration(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number') return 'none due';
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

function daysLeft(notAfter: string): number {
  return Math.floor((new Date(notAfter).getTime() - Date.now()) / 86_400_000);
}

/** Passes per template, adds and removes per wallet, the queue's health, certificate expiry. */
export function OverviewPage(): JSX.Element {
  const { data, error, loading } = useLoad(() => getJson<Overview>('/v1/stats/overview'), []);
  return (
    <>
      <h1 tabIndex={-1}>Overview</h1>
      {loading && data === undefined ? <Loading /> : null}
      <ErrorNote error={error} what="The overview" />
      {data === undefined ? null : (
        <div class="cards">
          <section class="card" aria-labelledby="ov-wallets">
            <h2 id="ov-wallets">Passes and wallets</h2>
            <TableScroll label="Passes today and this week">
              <table data-testid="overview-wallets">
                <thead>
                  <tr>
                    <th scope="col">
                      <span class="visually-hidden">Figure</span>
                    </th>
                    <th scope="col">Today</th>
                    <th scope="col">Last 7 days</th>
                  </tr>
                </thead>
                <tbody>
                  {ROWS.map(([label, read]) => (
                    <tr key={label}>
                      <th scope="row">{label}</th>
                      <td>{n(data.today === undefined ? undefined : read(data.today))}</td>
                      <td>{n(data.week === undefined ? undefined : read(data.week))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </section>
          <section class="card" aria-labelledby="ov-templates">
            <h2 id="ov-templates">Passes per template</h2>
            {data.templates.length === 0 ? (
              <p class="note">No templates yet.</p>
            ) : (
              <table data-testid="overview-templates">
                <thead>
                  <tr>
                    <th scope="col">Template</th>
                    <th scope="col">Passes</th>
                  </tr>
                </thead>
                <tbody>
                  {data.templates.map((template) => (
                    <tr key={template.id}>
                      <td>
                        <Link to={`/templates/${template.id}`}>{template.name}</Link>
                      </td>
                      <td>{n(template.passes)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section class="card" aria-labelledby="ov-queue">
            <h2 id="ov-queue">Queue</h2>
            <dl class="facts" data-testid="overview-queue">
              <dt>Webhook deliveries due</dt>
              <dd>{n(data.queue?.dueDeliveries)}</dd>
              <dt>Oldest due</dt>
              <dd>{duration(data.queue?.oldestDueSeconds)}</dd>
              <dt>Pushes waiting</dt>
              <dd>{n(data.queue?.pushes)}</dd>
              <dt>Google syncs waiting</dt>
              <dd>{n(data.queue?.googleSyncs)}</dd>
            </dl>
          </section>
          <section class="card" aria-labelledby="ov-certs">
            <h2 id="ov-certs">Signing certificates</h2>
            {(data.certificates ?? []).length === 0 ? (
              <p class="note">No signing certificate: passes are built but not signed.</p>
            ) : (
              <ul class="plain">
                {(data.certificates ?? []).map((certificate) => {
                  const left = daysLeft(certificate.notAfter);
                  return (
                    <li key={certificate.passTypeIdentifier} class={left < 30 ? 'warning-text' : undefined}>
                      <code>{certificate.passTypeIdentifier}</code> (team {certificate.teamIdentifier}) expires <When at={certificate.notAfter} />
                      {left < 0 ? ' — expired' : ` — in ${left} days`}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </div>
      )}
    </>
  );
}
