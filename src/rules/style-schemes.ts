import type { StyleScheme } from '../types.js';
import { type Context, describe, type Dict, expectKind, isDict, isDynamic, quote, report } from './context.js';
import type { Check } from './values.js';

// `preferredStyleSchemes` (iOS 18, 26): the layouts a pass asks for, in
// order. Wallet validates the pass against each and falls back to the style's
// ordinary layout when none fits — it never refuses the pass for it, so every
// check here is a warning. Apple, "Creating a poster event pass using
// semantic tags" → "Add the required semantic tags": "If you omit any of
// these tags, your pass falls back to the legacy event pass style."

/** The schemes Apple documents, with the style key each applies to. */
export const STYLE_SCHEMES: ReadonlyMap<StyleScheme, string> = new Map<StyleScheme, string>([
  ['posterEventTicket', 'eventTicket'],
  ['eventTicket', 'eventTicket'],
  ['semanticBoardingPass', 'boardingPass'],
  ['boardingPass', 'boardingPass'],
]);

/** The semantic tags a poster event ticket needs, for every event and by `eventType`. */
export const POSTER_EVENT_TAGS: { readonly all: readonly string[]; readonly [eventType: string]: readonly string[] } = {
  all: ['eventName', 'venueName', 'venueRegionName', 'venueRoom'],
  PKEventTypeSports: ['awayTeamAbbreviation', 'homeTeamAbbreviation'],
  PKEventTypeLivePerformance: ['performerNames'],
};

/** `preferredStyleSchemes`: strings, each a scheme Apple documents (an unknown one is a warning). */
export const checkStyleSchemes: Check = (context, value, key) => {
  if (!expectKind(context, value, 'array', key)) return;
  const schemes = value as readonly unknown[];
  context.stack.push(key);
  for (let index = 0; index < schemes.length; index++) {
    const scheme = schemes[index];
    if (!expectKind(context, scheme, 'string', index)) continue;
    if (!STYLE_SCHEMES.has(scheme as StyleScheme)) {
      report(context, 'warning', 'unknown-style-scheme', index, `${describe(scheme)} is not a style scheme Wallet knows (${[...STYLE_SCHEMES.keys()].join(', ')}); it is ignored`);
    }
  }
  context.stack.pop();
};

/**
 * After the walk of a body: each scheme asked for in `preferredStyleSchemes`
 * applies to a style the pass has, and a poster event ticket has the
 * semantic tags Wallet needs to draw it (`style-scheme-fallback` warnings
 * otherwise: Wallet draws the ordinary layout).
 */
export function checkSchemeRequirements(context: Context, body: Dict, styles: ReadonlySet<string>): void {
  const schemes = Object.hasOwn(body, 'preferredStyleSchemes') ? body['preferredStyleSchemes'] : undefined;
  if (!Array.isArray(schemes)) return;
  context.stack.push('preferredStyleSchemes');
  (schemes as readonly unknown[]).forEach((scheme, index) => {
    const style = typeof scheme === 'string' ? STYLE_SCHEMES.get(scheme as StyleScheme) : undefined;
    if (style !== undefined && !styles.has(style)) {
      report(context, 'warning', 'style-scheme-fallback', index, `${describe(scheme)} applies to ${quote(style)}, which this pass does not have; Wallet ignores it`);
    }
  });
  context.stack.pop();
  if (styles.has('eventTicket') && (schemes as readonly unknown[]).includes('posterEventTicket')) checkPosterSemantics(context, body);
}

function checkPosterSemantics(context: Context, body: Dict): void {
  const semantics = Object.hasOwn(body, 'semantics') ? body['semantics'] : undefined;
  if (isDynamic(context, semantics) || (semantics !== undefined && !isDict(semantics))) return;
  const tags: Dict = semantics ?? {};
  const eventType = tags['eventType'];
  if (isDynamic(context, eventType)) return;
  const needed = [...POSTER_EVENT_TAGS.all, ...(typeof eventType === 'string' && eventType !== 'all' ? (POSTER_EVENT_TAGS[eventType] ?? []) : [])];
  context.stack.push('semantics');
  for (const tag of needed) {
    if (Object.hasOwn(tags, tag) && tags[tag] !== undefined) continue;
    const kind = eventType === 'PKEventTypeSports' && !POSTER_EVENT_TAGS.all.includes(tag) ? 'A sports poster event ticket' : eventType === 'PKEventTypeLivePerformance' && tag === 'performerNames' ? 'A live performance poster event ticket' : 'A poster event ticket';
    report(context, 'warning', 'style-scheme-fallback', tag, `${kind} needs the semantic tag ${quote(tag)}; without it Wallet draws the ordinary event ticket instead of the poster`);
  }
  context.stack.pop();
}
