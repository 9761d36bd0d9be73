import type { JSX } from 'preact';
import { useMemo } from 'preact/hooks';
import { Chart, type Series } from '../components/Chart.js';
import { ErrorNote, Loading } from '../components/Notes.js';
import { TemplatePicker } from '../components/TemplatePicker.js';
import { getJson, query } from '../lib/api.js';
import { navigate, route } from '../lib/router.js';
import { allTemplates } from '../lib/templates.js';
import { useLoad } from '../lib/use-load.js';

interface Wallets {
  readonly apple: number;
  readonly google: number;
}
interface Point {
  readonly at: string;
  readonly passesMade: number;
  readonly downloads: number;
  readonly added: Wallets;
  readonly removed: Wallets;
  readonly devices: Wallets;
}
interface Stats {
  readonly interval: 'day' | 'hour';
  readonly from: string;
  readonly to: string;
  readonly points: readonly Point[];
}

const RANGES = { day: { span: 30 * 86_400_000, label: 'the last 30 days' }, hour: { span: 48 * 3_600_000, label: 'the last 48 hours' } } as const;

/** Per day or hour, per template: passes made, downloads, added and removed per wallet, devices — charts with tables. */
export function AnalyticsPage(): JSX.Element {
  const params = route.value.search;
  const templateId = params.get('templateId') ?? '';
  const interval = params.get('interval') === 'hour' ? 'hour' : 'day';
  const templates = useLoad(allTemplates, []);
  const to = useMemo(() => new Date(), [templateId, interval]);
  const from = new Date(to.getTime() - RANGES[interval].span);
  const stats = useLoad(
    () => getJson<Stats>(`/v1/stats${query({ templateId, interval, from: from.toISOString(), to: to.toISOString() })}`),
    [templateId, interval, to.getTime()],
  );
  const go = (next: { templateId?: string; interval?: string }): void =>
    navigate(`/analytics${query({ templateId: next.templateId ?? templateId, interval: next.interval ?? interval })}`, true);
  const charts = useMemo(() => {
    const points = stats.data?.points ?? [];
    const times = points.map((point) => Math.floor(new Date(point.at).getTime() / 1000));
    const pick = (label: string, color: string, read: (point: Point) => number): Series => ({ label, color, values: points.map(read) });
    return {
      times,
      made: [pick('Passes made', '#1d4ed8', (p) => p.passesMade), pick('Downloads', '#b45309', (p) => p.downloads)],
      added: [
        pick('Added (Apple)', '#166534', (p) => p.added.apple),
        pick('Added (Google)', '#0f766e', (p) => p.added.google),
        pick('Removed (Apple)', '#b91c1c', (p) => p.removed.apple),
        pick('Removed (Google)', '#9d174d', (p) => p.removed.google),
      ],
      devices: [pick('Apple devices', '#1b1f24', (p) => p.devices.apple), pick('Google saves', '#7c3aed', (p) => p.devices.google)],
    };
  }, [stats.data]);
  const name = (templates.data ?? []).find((template) => String(template.id) === templateId)?.name;
  return (
    <>
      <h1 tabIndex={-1}>Analytics</h1>
      <div class="analytics-controls">
        <TemplatePicker
          templates={templates.data ?? []}
          value={templateId}
          onChange={(id) => go({ templateId: id })}
          any="Every template"
          id="stats-template"
        />
        <fieldset class="field-row">
          <legend>Per</legend>
          <label>
            <input type="radio" name="interval" checked={interval === 'day'} onChange={() => go({ interval: 'day' })} /> day
          </label>
          <label>
            <input type="radio" name="interval" checked={interval === 'hour'} onChange={() => go({ interval: 'hour' })} /> hour
          </label>
        </fieldset>
      </div>
      <p class="note" data-testid="stats-scope">
        {name ?? 'Every template'}, {RANGES[interval].label}.
      </p>
      {stats.loading && stats.data === undefined ? <Loading /> : null}
      <ErrorNote error={stats.error} what="Analytics" />
      {stats.data === undefined ? null : (
        <div class="charts">
          <Chart title="Passes made and downloads" times={charts.times} series={charts.made} testId="chart-made" />
          <Chart title="Added and removed, per wallet" times={charts.times} series={charts.added} testId="chart-added" />
          <Chart title="Devices holding passes" times={charts.times} series={charts.devices} testId="chart-devices" />
        </div>
      )}
    </>
  );
}
