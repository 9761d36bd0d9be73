import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line of a chart: a fixed label of the console's own (never text from the service) and its values. */
export interface Series {
  readonly label: string;
  readonly color: string;
  readonly values: readonly number[];
}

/**
 * A uPlot line chart drawn into a canvas, with the same numbers as a table
 * beside it for screen readers (the canvas itself is hidden from them).
 */
export function Chart({ title, times, series, testId }: { title: string; times: readonly number[]; series: readonly Series[]; testId: string }): JSX.Element {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (element === null) return undefined;
    const width = (): number => Math.max(260, Math.min(element.clientWidth, 900));
    const plot = new uPlot(
      {
        width: width(),
        height: 220,
        series: [{}, ...series.map((line) => ({ label: line.label, stroke: line.color, width: 2, points: { show: times.length < 60 } }))],
        axes: [{ stroke: '#5b6472' }, { stroke: '#5b6472' }],
        scales: { x: { time: true } },
        legend: { show: true },
      },
      [times as number[], ...series.map((line) => line.values as number[])],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [times, series]);
  return (
    <figure class="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div class="chart-canvas" ref={host} aria-hidden="true" />
      <details class="chart-table">
        <summary>The numbers</summary>
        <div class="table-scroll" tabIndex={0} role="region" aria-label="The numbers">
          <table data-testid={`${testId}-table`}>
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {series.map((line) => (
                  <th key={line.label} scope="col">
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {times.map((time, index) => (
                <tr key={time}>
                  <th scope="row">{new Date(time * 1000).toLocaleString()}</th>
                  {series.map((line) => (
                    <td key={line.label}>{line.values[index] ?? 0}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
