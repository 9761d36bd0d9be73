import { parseColor, type Rgb } from '../../src/index.js';

// WCAG 2's contrast ratio, applied to what the preview draws: the pass's labels (10 px)
// and values (15 px; the primary values and a poster's title are large) on the pass's
// background color, on its strip image, on an event ticket's background image, on a
// poster's artwork and footer. Images are judged by their average color.

/** WCAG 2.x: 4.5:1 for text under 24 px (18.66 px bold), 3:1 for large text. */
export const NORMAL_TEXT = 4.5;
export const LARGE_TEXT = 3;

const channel = (value: number): number => {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const luminance = (color: Rgb): number => 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b);

/**
 * The WCAG 2 contrast ratio of two colors, 1 to 21.
 *
 * @example
 * ```ts
 * contrastRatio({ r: 255, g: 255, b: 255 }, { r: 0, g: 0, b: 0 }); // 21
 * ```
 */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** A ratio as people read it, rounded down so a failing 4.47 never shows as "4.5:1". */
export const ratioText = (ratio: number): string => `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;

/** What the contrast checks read of a pass: its colors as written, and how it is drawn. */
export interface ContrastInput {
  readonly backgroundColor?: unknown;
  readonly foregroundColor?: unknown;
  readonly labelColor?: unknown;
  readonly footerBackgroundColor?: unknown;
  readonly style: string;
  /** A poster layout the pass asks for (`posterEventTicket`, `posterGeneric`), if any. */
  readonly poster?: string | undefined;
}

/** The average colors of the images text is drawn over (the densest of each slot). */
export interface ContrastImages {
  readonly strip?: Rgb | undefined;
  readonly background?: Rgb | undefined;
  readonly artwork?: Rgb | undefined;
}

/** A contrast finding, as the Issues list takes it: at the color to change (a pointer into the pass). */
export interface ContrastIssue {
  readonly severity: 'warning';
  readonly code: 'low-contrast';
  readonly message: string;
  readonly path: string;
}

const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const BLACK: Rgb = { r: 0, g: 0, b: 0 };
const rgbText = (color: Rgb): string => `rgb(${color.r}, ${color.g}, ${color.b})`;

/**
 * Labels and values drawn under WCAG's contrast thresholds, one warning per color to
 * change (`labelColor`, `foregroundColor`) naming each surface it is too close to.
 * Colors left out are Wallet's defaults (white background, black text, labels in the
 * text color).
 *
 * @example
 * ```ts
 * contrastIssues({ style: 'generic', backgroundColor: 'rgb(22, 101, 52)', labelColor: 'rgb(120, 170, 130)' }, {});
 * // [{ code: 'low-contrast', path: '/labelColor', message: 'labelColor rgb(120, 170, 130) is 2.6:1 on the background …' }]
 * ```
 */
export function contrastIssues(pass: ContrastInput, images: ContrastImages): ContrastIssue[] {
  const read = (value: unknown): Rgb | undefined => (typeof value === 'string' ? parseColor(value) : undefined);
  const background = read(pass.backgroundColor) ?? WHITE;
  const foreground = read(pass.foregroundColor);
  const label = read(pass.labelColor);
  const text = foreground ?? BLACK;
  const labels = label ?? text;
  const backgroundName = pass.backgroundColor === undefined ? 'the default white background' : `the background ${rgbText(background)}`;

  // Each surface text is drawn on, with the size of the text there.
  type Check = { on: Rgb; where: string; labels?: number; values?: number };
  const checks: Check[] = [];
  const classic = pass.style;
  const strip = classic === 'eventTicket' || classic === 'coupon' || classic === 'storeCard' ? images.strip : undefined;
  const blurred = classic === 'eventTicket' && strip === undefined ? images.background : undefined;
  if (blurred === undefined) checks.push({ on: background, where: backgroundName, labels: NORMAL_TEXT, values: NORMAL_TEXT });
  else checks.push({ on: blurred, where: `the background image (average ${rgbText(blurred)})`, labels: NORMAL_TEXT, values: NORMAL_TEXT });
  if (strip !== undefined) checks.push({ on: strip, where: `the strip image (average ${rgbText(strip)})`, labels: NORMAL_TEXT, values: LARGE_TEXT });
  if (pass.poster !== undefined) {
    const art = images.artwork ?? images.background;
    if (art !== undefined) checks.push({ on: art, where: `the poster's artwork (average ${rgbText(art)})`, values: LARGE_TEXT });
    const footer = read(pass.footerBackgroundColor);
    if (footer !== undefined) checks.push({ on: footer, where: `the poster's footer ${rgbText(footer)}`, labels: NORMAL_TEXT, values: NORMAL_TEXT });
  }

  const found: ContrastIssue[] = [];
  const report = (color: Rgb, name: string, path: string, kind: 'labels' | 'values'): void => {
    const low = checks.flatMap((check) => {
      const needed = check[kind];
      if (needed === undefined) return [];
      const ratio = contrastRatio(color, check.on);
      return ratio < needed
        ? [
            `${ratioText(ratio)} on ${check.where} (WCAG asks ${ratioText(needed)} for ${kind === 'labels' ? 'the 10 px labels' : needed === LARGE_TEXT ? 'large text' : 'the 15 px values'})`,
          ]
        : [];
    });
    if (low.length === 0) return;
    found.push({
      severity: 'warning',
      code: 'low-contrast',
      path,
      message: `${name} ${rgbText(color)} is ${low.join('; ')}: hard to read, and for many people unreadable.`,
    });
  };
  report(
    text,
    pass.foregroundColor === undefined ? 'The default black text' : 'foregroundColor',
    pass.foregroundColor === undefined ? '' : '/foregroundColor',
    'values',
  );
  // Labels in their own color; without one, they are the text's color, checked at the labels' size.
  if (label !== undefined) report(labels, 'labelColor', '/labelColor', 'labels');
  else if (!found.some((issue) => issue.path === (pass.foregroundColor === undefined ? '' : '/foregroundColor'))) {
    report(
      labels,
      pass.foregroundColor === undefined ? 'The default black labels' : 'foregroundColor (the labels have no labelColor)',
      pass.foregroundColor === undefined ? '' : '/foregroundColor',
      'labels',
    );
  }
  return found;
}
