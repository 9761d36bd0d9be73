import type { Page } from 'playwright-core';

/** Keystrokes measured per run (after 3 warm-ups): enough for a p95. */
export const KEYSTROKES = 40;

/** One keystroke's timings, from its keydown in the page: DOM showing the result, the next frame's start (rAF), and that frame painted. */
export interface Sample {
  readonly dom: number;
  readonly frame: number;
  readonly painted: number;
}

interface Timing {
  start: number;
  expected: string;
  read: () => string;
  samples: Sample[];
}

/**
 * Installs the stopwatch: the keydown's time stamp (read by a capture listener, before any handler) starts it; a
 * MutationObserver under the preview stops the DOM clock when `selector` shows the
 * expected text; a requestAnimationFrame callback marks the next frame, and a
 * message posted from it — delivered after that frame's style, layout and paint —
 * marks it painted.
 */
export async function installStopwatch(page: Page): Promise<void> {
  await page.evaluate(() => {
    const timing: Timing = { start: 0, expected: '', read: () => '', samples: [] };
    (window as unknown as { timing: Timing }).timing = timing;
    // From the key event's own time stamp (when the browser received the key), not from when the page got to
    // run the listener: a task that holds the page when the key comes counts too.
    addEventListener('keydown', (event) => (timing.start = event.timeStamp), { capture: true });
    const channel = new MessageChannel();
    let pending: { start: number; dom: number; frame: number } | undefined;
    channel.port1.onmessage = () => {
      if (pending === undefined) return;
      timing.samples.push({ dom: pending.dom, frame: pending.frame, painted: performance.now() - pending.start });
      pending = undefined;
    };
    const target = document.querySelector('[data-testid=pass-preview]')?.parentElement ?? document.body;
    new MutationObserver(() => {
      if (timing.start === 0 || timing.read() !== timing.expected) return;
      const start = timing.start;
      timing.start = 0;
      const dom = performance.now() - start;
      requestAnimationFrame(() => {
        pending = { start, dom, frame: performance.now() - start };
        channel.port2.postMessage(0);
      });
    }).observe(target, { subtree: true, childList: true, characterData: true });
  });
}

/**
 * Presses digit keys KEYSTROKES + 3 times (the first 3 warm up and are not counted), each time
 * waiting until `selector` shows `expected(i)` and the frame is painted.
 */
export async function measureTyping(page: Page, expected: (i: number) => string, selector: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 1; i <= KEYSTROKES + 3; i++) {
    await page.evaluate(
      ({ text, css }) => {
        const timing = (window as unknown as { timing: Timing }).timing;
        timing.expected = text;
        timing.read = () => document.querySelector(css)?.textContent ?? '';
        timing.samples = [];
      },
      { text: expected(i), css: selector },
    );
    await page.keyboard.press(String(i % 10));
    await page.waitForFunction(() => (window as unknown as { timing: Timing }).timing.samples.length > 0);
    const sample = await page.evaluate(
      () => (window as unknown as { timing: Timing }).timing.samples[0] ?? { dom: Number.NaN, frame: Number.NaN, painted: Number.NaN },
    );
    if (i > 3) samples.push(sample);
  }
  return samples;
}

/** The q-quantile of a list (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** median, p90, p95 and max, for the log. */
export function describeSamples(samples: readonly number[], target: number): string {
  const at = (q: number): number => quantile(samples, q);
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${at(1).toFixed(1)} ms (n=${samples.length}; target ${target} ms)`;
}

/** Puts the editor's cursor just before the closing quote of the line holding `needle`. */
export async function cursorBeforeQuote(page: Page, text: string, needle: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+Home');
  const line = text.split('\n').findIndex((row) => row.includes(needle));
  for (let i = 0; i < line; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
}
