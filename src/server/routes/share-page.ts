// The share page's HTML: the front of each pass as a simple card (its
// colors, logo and strip images, header, primary, secondary and auxiliary
// fields), the wallet buttons in the device's order, a QR code on computers.
// No script; one <style> element, allowed by its hash in the page's CSP;
// every text from a pass escaped; images from the service itself.
import { createHash } from 'node:crypto';
import type { Field, Pass, PassStructure } from '../../types.js';
import type { ShareDevice, ShareWords } from './share-page-text.js';

/** One pass as the page draws it. */
export interface ShareCard {
  readonly pass: Pass;
  /** `voided` and `expired` passes are shown as such, with nothing to add. */
  readonly state: 'active' | 'voided' | 'expired';
  /** The pass's `pass.strings` in the page's language (labels and values that are keys). */
  readonly strings: Readonly<Record<string, string>> | undefined;
  /** Addresses of the template's images at the service (`logo`, `strip`, `thumbnail`), when it has them. */
  readonly images: {
    readonly logo?: string | undefined;
    readonly strip?: string | undefined;
    readonly thumbnail?: string | undefined;
    /** The pass's icon: the page's favicon. */
    readonly icon?: string | undefined;
  };
}

/** What a page shows. */
export interface SharePageInput {
  readonly cards: readonly ShareCard[];
  /** The page's language (`lang`), a BCP 47 tag. */
  readonly language: string;
  readonly words: ShareWords;
  readonly device: ShareDevice;
  /** The page's own address (Open Graph, the QR code). */
  readonly pageUrl: string;
  /** The `.pkpass` (or `.pkpasses`) download. */
  readonly appleUrl: string;
  /** The Google save link's redirect, when Google Wallet is configured. */
  readonly googleUrl: string | undefined;
  /** The QR code of the page as SVG markup, on computers. */
  readonly qrSvg: string | undefined;
  /** An absolute image address for Open Graph (the logo). */
  readonly ogImage: string | undefined;
}

/** A rendered page: its HTML and the Content-Security-Policy that goes with it. */
export interface SharePage {
  readonly html: string;
  readonly csp: string;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text for HTML (content or a quoted attribute): `& < > " '` escaped.
 *
 * @example
 * ```ts
 * escapeHtml('<img src=x>'); // '&lt;img src=x&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** Most characters of one text drawn (a pass may hold long values; the page stays small). */
const MAX_TEXT = 300;
const clip = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** A color of a pass (`rgb(r, g, b)`, `#rgb`, `#rrggbb`) as CSS, only digits from the pass: anything else is `fallback`. */
function cssColor(value: unknown, fallback: string): string {
  if (typeof value !== 'string') return fallback;
  const rgb = /^\s*rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)\s*$/i.exec(value);
  if (rgb !== null) {
    const parts = rgb.slice(1).map(Number);
    return parts.every((part) => part <= 255) ? `rgb(${parts.join(',')})` : fallback;
  }
  const hex = /^\s*#([0-9a-f]{3}|[0-9a-f]{6})\s*$/i.exec(value);
  if (hex === null) return fallback;
  const digits = hex[1]!.length === 3 ? [...hex[1]!].map((digit) => digit + digit).join('') : hex[1]!;
  return `#${digits.toLowerCase()}`;
}

const STYLES = ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard'] as const;

function structureOf(pass: Pass): PassStructure {
  for (const style of STYLES) {
    const structure = pass[style];
    if (structure !== undefined) return structure;
  }
  return {};
}

/** A field's text as Wallet would show it: localized, dates and amounts formatted in the page's language. */
function fieldText(field: Field, strings: Readonly<Record<string, string>> | undefined, language: string): { label: string; value: string } {
  const local = (text: string): string => (strings !== undefined && Object.hasOwn(strings, text) ? strings[text]! : text);
  const label = field.label === undefined ? '' : local(field.label);
  let value = typeof field.value === 'string' ? local(field.value) : String(field.value);
  try {
    if (typeof field.value === 'number' && field.currencyCode !== undefined) {
      value = new Intl.NumberFormat(language, { style: 'currency', currency: field.currencyCode }).format(field.value);
    } else if (typeof field.value === 'number' && field.numberStyle === 'PKNumberStylePercent') {
      value = new Intl.NumberFormat(language, { style: 'percent' }).format(field.value);
    } else if (typeof field.value === 'string' && (field.dateStyle !== undefined || field.timeStyle !== undefined)) {
      const date = new Date(field.value);
      const style = (apple: string | undefined): 'short' | 'medium' | 'long' | 'full' | undefined =>
        apple === 'PKDateStyleShort'
          ? 'short'
          : apple === 'PKDateStyleMedium'
            ? 'medium'
            : apple === 'PKDateStyleLong'
              ? 'long'
              : apple === 'PKDateStyleFull'
                ? 'full'
                : undefined;
      const dateStyle = style(field.dateStyle);
      const timeStyle = style(field.timeStyle);
      if (!Number.isNaN(date.getTime()) && (dateStyle !== undefined || timeStyle !== undefined)) {
        value = new Intl.DateTimeFormat(language, {
          ...(dateStyle === undefined ? {} : { dateStyle }),
          ...(timeStyle === undefined ? {} : { timeStyle }),
          ...(field.ignoresTimeZone === true ? { timeZone: 'UTC' } : {}),
        }).format(date);
      }
    }
  } catch {
    // A code or style Intl does not know: the value as it is.
  }
  return { label: clip(label), value: clip(value) };
}

function fields(list: readonly Field[] | undefined, className: string, strings: ShareCard['strings'], language: string): string {
  if (list === undefined || list.length === 0) return '';
  const items = list
    .slice(0, 4)
    .map((field) => {
      const { label, value } = fieldText(field, strings, language);
      return `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`;
    })
    .join('');
  return `<dl class="${className}">${items}</dl>`;
}

function card(entry: ShareCard, index: number, input: SharePageInput): string {
  const { pass, strings, images } = entry;
  const structure = structureOf(pass);
  const { language } = input;
  const logoText = typeof pass.logoText === 'string' ? clip(strings?.[pass.logoText] ?? pass.logoText) : '';
  const logo =
    images.logo === undefined
      ? ''
      : `<img class="logo" src="${escapeHtml(images.logo)}" alt="${escapeHtml(logoText === '' ? clip(pass.organizationName) : '')}">`;
  const strip = images.strip === undefined ? '' : `<img class="strip" src="${escapeHtml(images.strip)}" alt="">`;
  const thumbnail = images.thumbnail === undefined || images.strip !== undefined ? '' : `<img class="thumb" src="${escapeHtml(images.thumbnail)}" alt="">`;
  const state =
    entry.state === 'active' ? '' : `<p class="state" role="status">${escapeHtml(entry.state === 'voided' ? input.words.voided : input.words.expired)}</p>`;
  return `<section class="card c${index}${entry.state === 'active' ? '' : ' ended'}" aria-label="${escapeHtml(clip(pass.description))}">
<div class="top">${logo}<span class="logotext">${escapeHtml(logoText)}</span>${fields(structure.headerFields, 'header', strings, language)}</div>
${
  strip === ''
    ? `<div class="main">${fields(structure.primaryFields, 'primary', strings, language)}${thumbnail}</div>`
    : `<div class="stripbox">${strip}<div class="main over">${fields(structure.primaryFields, 'primary', strings, language)}</div></div>`
}
${fields(structure.secondaryFields, 'secondary', strings, language)}${fields(structure.auxiliaryFields, 'auxiliary', strings, language)}
</section>${state}`;
}

const BASE_CSS = `*{box-sizing:border-box}
html{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;background:#f2f2f7;color:#1c1c1e}
body{margin:0;padding:24px 16px;display:flex;flex-direction:column;align-items:center;gap:16px}
main{width:100%;max-width:360px;display:flex;flex-direction:column;gap:16px}
h1{font-size:1.25rem;margin:0;overflow-wrap:anywhere}
.card{border-radius:12px;padding:12px;box-shadow:0 2px 8px rgba(0,0,0,.2);overflow:hidden;overflow-wrap:anywhere}
.card.ended{filter:grayscale(1);opacity:.7}
.top{display:flex;align-items:center;gap:8px;min-height:40px}
.logo{max-height:40px;max-width:140px}
.logotext{flex:1;font-weight:600}
.stripbox{position:relative;margin:8px -12px}
.strip{display:block;width:100%}
.over{position:absolute;left:12px;right:12px;bottom:8px}
.main{display:flex;justify-content:space-between;gap:8px}
.thumb{max-width:80px;max-height:80px}
dl{margin:8px 0 0;display:flex;flex-wrap:wrap;gap:4px 16px}
dl div{min-width:0}
dt{font-size:.7rem;text-transform:uppercase;font-weight:600}
dd{margin:0;font-size:1rem}
.header{margin:0;text-align:right}
.primary dd{font-size:1.6rem}
.state{margin:0;padding:12px;border-radius:8px;background:#fff;border:2px solid #b00020;color:#8a0019;font-weight:600}
.actions{display:flex;flex-direction:column;gap:12px}
.wallet{display:block;text-align:center;padding:14px 16px;border-radius:10px;background:#000;color:#fff;font-weight:600;text-decoration:none;font-size:1rem}
.wallet:focus-visible{outline:3px solid #0a84ff;outline-offset:2px}
figure{margin:0;display:flex;flex-direction:column;align-items:center;gap:8px}
figure svg{width:180px;height:180px;background:#fff;padding:12px}
figcaption{font-size:.9rem;text-align:center}`;

/** The CSS of one card's colors: only digits from the pass reach it (cssColor). */
function cardCss(entry: ShareCard, index: number): string {
  const background = cssColor(entry.pass.backgroundColor, '#ffffff');
  const foreground = cssColor(entry.pass.foregroundColor, '#000000');
  const label = cssColor(entry.pass.labelColor, foreground);
  return `.c${index}{background:${background};color:${foreground}}.c${index} dt{color:${label}}`;
}

/**
 * The page: every card, then — for passes that can still be added — the
 * wallet buttons (the device's first), and on computers a QR code of the
 * page. Its CSP allows its one <style> by hash and images from the service
 * only; nothing runs.
 *
 * @example
 * ```ts
 * const { html, csp } = renderSharePage(input);
 * ```
 */
export function renderSharePage(input: SharePageInput): SharePage {
  const { cards, words } = input;
  const first = cards[0]!;
  const addable = cards.some((entry) => entry.state === 'active');
  const many = cards.length > 1;
  const apple = `<a class="wallet apple" href="${escapeHtml(input.appleUrl)}">${escapeHtml(many ? words.addAllApple : words.addApple)}</a>`;
  const google =
    input.googleUrl === undefined
      ? ''
      : `<a class="wallet google" href="${escapeHtml(input.googleUrl)}">${escapeHtml(many ? words.addAllGoogle : words.addGoogle)}</a>`;
  const buttons = !addable ? '' : `<div class="actions">${input.device.first === 'google' ? google + apple : apple + google}</div>`;
  const qr =
    !addable || input.qrSvg === undefined
      ? ''
      : `<figure>${input.qrSvg.replace('<svg ', `<svg role="img" aria-label="${escapeHtml(words.qrLabel)}" `)}<figcaption>${escapeHtml(words.scan)}</figcaption></figure>`;
  const title = clip(many ? `${first.pass.organizationName}: ${words.passes} (${cards.length})` : `${first.pass.organizationName}: ${first.pass.description}`);
  const css = `${BASE_CSS}\n${cards.map(cardCss).join('\n')}`;
  const styleHash = createHash('sha256').update(css).digest('base64');
  const og = [
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(clip(first.pass.description))}">`,
    `<meta property="og:url" content="${escapeHtml(input.pageUrl)}">`,
    input.ogImage === undefined ? '' : `<meta property="og:image" content="${escapeHtml(input.ogImage)}">`,
  ].join('');
  const html = `<!doctype html>
<html lang="${escapeHtml(input.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
${first.images.icon === undefined ? '' : `<link rel="icon" href="${escapeHtml(first.images.icon)}">`}
${og}
<style>${css}</style>
</head>
<body>
<main>
<h1>${escapeHtml(clip(many ? `${first.pass.organizationName} · ${words.passes}` : first.pass.organizationName))}</h1>
${cards.map((entry, index) => card(entry, index, input)).join('\n')}
${buttons}
${qr}
</main>
</body>
</html>
`;
  const csp = `default-src 'none'; img-src 'self'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return { html, csp };
}

/**
 * The page a share link that leads nowhere shows (404).
 *
 * @example
 * ```ts
 * notFoundPage(shareWords('en'), 'en').html;
 * ```
 */
export function notFoundPage(words: ShareWords, language: string): SharePage {
  const css = BASE_CSS;
  const styleHash = createHash('sha256').update(css).digest('base64');
  const html = `<!doctype html>
<html lang="${escapeHtml(language)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(words.notFound)}</title><style>${css}</style></head>
<body><main><h1>${escapeHtml(words.notFound)}</h1></main></body>
</html>
`;
  return { html, csp: `default-src 'none'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'` };
}
