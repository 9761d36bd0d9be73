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

/** The semantic tags a semantic boarding pass needs (Apple, "Creating an airline boarding pass using semantic tags", iOS 26). */
export const SEMANTIC_BOARDING_TAGS: readonly string[] = [
  'airlineCode',
  'flightNumber',
  'departureAirportCode',
  'departureCityName',
  'departureLocationTimeZone',
  'destinationAirportCode',
  'destinationCityName',
  'destinationLocationTimeZone',
  'originalArrivalDate',
  'originalBoardingDate',
  'originalDepartureDate',
  'passengerName',
];

/** `preferredStyleSchemes`: strings, each a scheme Apple documents (an unknown one is a warning). */
export const checkStyleSchemes: Check = (context, value, key) => {
  if (!expectKind(context, value, 'array', key)) return;
  const schemes = value as readonly unknown[];
  context.stack.push(key);
  for (let index = 0; index < schemes.length; index++) {
    const scheme = schemes[index];
    if (!expectKind(context, scheme, 'string', index)) continue;
    if (!STYLE_SCHEMES.has(scheme as StyleScheme)) {
      report(
        context,
        'warning',
        'unknown-style-scheme',
        index,
        `${describe(scheme)} is not a style scheme Wallet knows (${[...STYLE_SCHEMES.keys()].join(', ')}); it is ignored`,
      );
    }
  }
  context.stack.pop();
};

/**
 * After the walk of a body: each scheme asked for in `preferredStyleSchemes`
 * applies to a style the pass has, and a poster event ticket or a semantic
 * boarding pass has what Wallet needs to draw it (`style-scheme-fallback`
 * warnings otherwise: Wallet draws the ordinary layout).
 */
export function checkSchemeRequirements(context: Context, body: Dict, styles: ReadonlySet<string>): void {
  const schemes = Object.hasOwn(body, 'preferredStyleSchemes') ? body['preferredStyleSchemes'] : undefined;
  if (!Array.isArray(schemes)) return;
  context.stack.push('preferredStyleSchemes');
  (schemes as readonly unknown[]).forEach((scheme, index) => {
    const style = typeof scheme === 'string' ? STYLE_SCHEMES.get(scheme as StyleScheme) : undefined;
    if (style !== undefined && !styles.has(style)) {
      report(
        context,
        'warning',
        'style-scheme-fallback',
        index,
        `${describe(scheme)} applies to ${quote(style)}, which this pass does not have; Wallet ignores it`,
      );
    }
  });
  context.stack.pop();
  if (styles.has('eventTicket') && (schemes as readonly unknown[]).includes('posterEventTicket')) checkPosterSemantics(context, body);
  if (styles.has('boardingPass') && (schemes as readonly unknown[]).includes('semanticBoardingPass')) checkSemanticBoarding(context, body);
}

function checkSemanticBoarding(context: Context, body: Dict): void {
  const structure = body['boardingPass'];
  const transitType = isDict(structure) ? structure['transitType'] : undefined;
  if (typeof transitType === 'string' && !isDynamic(context, transitType) && transitType !== 'PKTransitTypeAir') {
    context.stack.push('boardingPass');
    report(
      context,
      'warning',
      'style-scheme-fallback',
      'transitType',
      `A semantic boarding pass is an airline boarding pass (\`transitType\` PKTransitTypeAir), not ${describe(transitType)}; Wallet draws the ordinary boarding pass`,
    );
    context.stack.pop();
  }
  reportMissingTags(context, body, SEMANTIC_BOARDING_TAGS, 'A semantic boarding pass', 'the ordinary boarding pass');
}

/** A `style-scheme-fallback` warning for each of `tags` missing from `semantics` (none when it holds placeholders). */
function reportMissingTags(context: Context, body: Dict, tags: readonly string[], what: string, fallback: string): void {
  const semantics = Object.hasOwn(body, 'semantics') ? body['semantics'] : undefined;
  if (isDynamic(context, semantics) || (semantics !== undefined && !isDict(semantics))) return;
  const present: Dict = semantics ?? {};
  context.stack.push('semantics');
  for (const tag of tags) {
    if (Object.hasOwn(present, tag) && present[tag] !== undefined) continue;
    report(context, 'warning', 'style-scheme-fallback', tag, `${what} needs the semantic tag ${quote(tag)}; without it Wallet draws ${fallback}`);
  }
  context.stack.pop();
}

function checkPosterSemantics(context: Context, body: Dict): void {
  const semantics = Object.hasOwn(body, 'semantics') ? body['semantics'] : undefined;
  const eventType = isDict(semantics) ? semantics['eventType'] : undefined;
  if (isDynamic(context, eventType)) return;
  const fallback = 'the ordinary event ticket instead of the poster';
  reportMissingTags(context, body, POSTER_EVENT_TAGS.all, 'A poster event ticket', fallback);
  if (eventType === 'PKEventTypeSports')
    reportMissingTags(context, body, POSTER_EVENT_TAGS['PKEventTypeSports'] ?? [], 'A sports poster event ticket', fallback);
  if (eventType === 'PKEventTypeLivePerformance')
    reportMissingTags(context, body, POSTER_EVENT_TAGS['PKEventTypeLivePerformance'] ?? [], 'A live performance poster event ticket', fallback);
}
