import type { Pass, PassStructure } from '../../src/index.js';
import { POSTER_EVENT_TAGS, SEMANTIC_BOARDING_TAGS } from '../../src/index.js';

/** The poster (or semantic) layout a pass asks for, and whether Wallet can draw it. */
export interface PosterLayout {
  /** iOS 18's poster event ticket, iOS 26's semantic boarding pass, or iOS 27's `posterGeneric`. */
  readonly kind: 'posterEventTicket' | 'posterGeneric' | 'semanticBoardingPass';
  /** The semantic tags the layout needs and the pass lacks: Wallet shows the older layout instead. */
  readonly missing: readonly string[];
  /** Why else Wallet cannot draw it (a semantic boarding pass that is not an airline's). */
  readonly reason?: string;
  /** The iOS version that first draws it. */
  readonly since: string;
}

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/**
 * Which poster a pass asks for: `posterGeneric` (iOS 27) when the pass has it, a semantic
 * boarding pass (iOS 26) when a boarding pass lists `semanticBoardingPass` — with the tags it
 * lacks, or why it is not one Wallet draws — a poster
 * event ticket (iOS 18) when an event ticket lists `posterEventTicket` in
 * `preferredStyleSchemes` — with the semantic tags it lacks, for which Wallet falls
 * back to the ordinary event ticket.
 *
 * @example
 * ```ts
 * posterLayout({ eventTicket: {}, preferredStyleSchemes: ['posterEventTicket'], semantics: {} });
 * // { kind: 'posterEventTicket', missing: ['eventName', 'venueName', …], since: 'iOS 18' }
 * ```
 */
export function posterLayout(pass: Pass): PosterLayout | undefined {
  if (typeof pass.posterGeneric === 'object' && pass.posterGeneric !== null) return { kind: 'posterGeneric', missing: [], since: 'iOS 27' };
  if (pass.boardingPass !== undefined && Array.isArray(pass.preferredStyleSchemes) && pass.preferredStyleSchemes.includes('semanticBoardingPass')) {
    const tags = (pass.semantics ?? {}) as Record<string, unknown>;
    const air = pass.boardingPass.transitType === 'PKTransitTypeAir';
    return {
      kind: 'semanticBoardingPass',
      missing: SEMANTIC_BOARDING_TAGS.filter((tag) => !present(tags[tag])),
      ...(air ? {} : { reason: 'it is not an airline boarding pass (`transitType` PKTransitTypeAir)' }),
      since: 'iOS 26',
    };
  }
  if (pass.eventTicket === undefined || !Array.isArray(pass.preferredStyleSchemes) || !pass.preferredStyleSchemes.includes('posterEventTicket'))
    return undefined;
  const semantics = (pass.semantics ?? {}) as Record<string, unknown>;
  const eventType = typeof semantics['eventType'] === 'string' ? semantics['eventType'] : '';
  const needed = [...POSTER_EVENT_TAGS.all, ...(POSTER_EVENT_TAGS[eventType] ?? [])];
  return { kind: 'posterEventTicket', missing: needed.filter((tag) => !present(semantics[tag])), since: 'iOS 18' };
}

/** The poster's structure: `posterGeneric`'s own fields, or the event ticket's. */
export function posterStructure(pass: Pass, layout: PosterLayout): PassStructure {
  return (layout.kind === 'posterGeneric' ? pass.posterGeneric : layout.kind === 'semanticBoardingPass' ? pass.boardingPass : pass.eventTicket) ?? {};
}
