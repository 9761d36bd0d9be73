import type { Field } from '../../src/index.js';

/** A run of a back field's text: plain, or a link Wallet makes tappable. */
export interface TextRun {
  readonly text: string;
  readonly href?: string;
}

const SAFE_SCHEMES = /^(https?:|mailto:|tel:)/i;
// Links (URLs, www. addresses, e-mail addresses) and phone numbers, as Wallet's data detectors find them.
const URL = /\b(?:https?:\/\/|www\.)[^\s<>"]*[^\s<>".,;:!?)\]'"]/gi;
const EMAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;
const PHONE = /(?<![\w/])\+?\d[\d ().-]{5,}\d(?![\w/])/g;
const ANCHOR = /<a\s+href\s*=\s*(?:"([^"]*)"|'([^']*)')\s*>(.*?)<\/a\s*>/gis;

function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  return SAFE_SCHEMES.test(trimmed) ? trimmed : undefined;
}

function detect(text: string, links: boolean, phones: boolean): TextRun[] {
  const found: { from: number; to: number; href: string }[] = [];
  const take = (pattern: RegExp, href: (match: string) => string): void => {
    for (const match of text.matchAll(pattern)) {
      const from = match.index;
      const to = from + match[0].length;
      if (found.some((other) => from < other.to && to > other.from)) continue;
      found.push({ from, to, href: href(match[0]) });
    }
  };
  if (links) {
    take(URL, (match) => (/^www\./i.test(match) ? `https://${match}` : match));
    take(EMAIL, (match) => `mailto:${match}`);
  }
  // Digits that read as a date or a plain number are not phone numbers: at least 7 digits.
  if (phones) take(PHONE, (match) => `tel:${match.replace(/[^\d+]/g, '')}`);
  found.sort((a, b) => a.from - b.from);
  const runs: TextRun[] = [];
  let at = 0;
  for (const link of found) {
    if (link.from > at) runs.push({ text: text.slice(at, link.from) });
    const digits = link.href.startsWith('tel:') ? link.href.replace(/\D/g, '').length : 7;
    runs.push(digits >= 7 ? { text: text.slice(link.from, link.to), href: link.href } : { text: text.slice(link.from, link.to) });
    at = link.to;
  }
  if (at < text.length) runs.push({ text: text.slice(at) });
  return runs;
}

/**
 * A back field's text as Wallet shows it on the Pass Details screen: its
 * `attributedValue` when it has one (only `<a href>` is read; other markup is
 * shown as text), else its value; and, with the data detectors the field allows
 * (all when `dataDetectorTypes` is absent), URLs, e-mail addresses and phone
 * numbers made links. Only http(s), mailto and tel links are made.
 *
 * @example
 * ```ts
 * linkify({ key: 'help', value: 'Call +1 408 555 0100' }, 'Call +1 408 555 0100');
 * // [{ text: 'Call ' }, { text: '+1 408 555 0100', href: 'tel:+14085550100' }]
 * ```
 */
export function linkify(field: Field, shown: string): TextRun[] {
  const detectors = field.dataDetectorTypes;
  const links = detectors === undefined || detectors.includes('PKDataDetectorTypeLink');
  const phones = detectors === undefined || detectors.includes('PKDataDetectorTypePhoneNumber');
  const attributed = field.attributedValue;
  if (typeof attributed !== 'string') return detect(shown, links, phones);
  const runs: TextRun[] = [];
  let at = 0;
  for (const match of attributed.matchAll(ANCHOR)) {
    if (match.index > at) runs.push(...detect(attributed.slice(at, match.index), links, phones));
    const href = safeHref(match[1] ?? match[2] ?? '');
    const text = (match[3] ?? '').replace(/<[^>]*>/g, '');
    runs.push(href === undefined ? { text } : { text, href });
    at = match.index + match[0].length;
  }
  if (at < attributed.length) runs.push(...detect(attributed.slice(at), links, phones));
  return runs;
}
