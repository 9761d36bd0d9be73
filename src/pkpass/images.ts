// Which images each style shows, and Apple's size guidance for them.

import type { PassStyle, StyleKey } from '../types.js';

/** Every image name Wallet reads (without density suffix and `.png`). */
export type ImageName =
  | 'icon'
  | 'logo'
  | 'strip'
  | 'background'
  | 'thumbnail'
  | 'footer'
  | 'personalizationLogo'
  // iOS 18 poster event tickets, iOS 26 semantic boarding passes, iOS 27 posterGeneric
  | 'primaryLogo'
  | 'secondaryLogo'
  | 'artwork'
  | 'venueMap';

/**
 * What decides which images a pass shows: its style keys (one of the five,
 * maybe `posterGeneric` too) and the layouts `preferredStyleSchemes` asks for.
 * {@link imageLayout} reads it from a pass.
 */
export interface ImageLayout {
  readonly styles: readonly StyleKey[];
  /** `preferredStyleSchemes` holds `posterEventTicket` (iOS 18). */
  readonly posterEventTicket: boolean;
  /** `preferredStyleSchemes` holds `semanticBoardingPass` (iOS 26). */
  readonly semanticBoardingPass: boolean;
}

// The classic layouts (Wallet Developer Guide, "Pass Design and Creation").
const STYLE_IMAGES: Readonly<Record<StyleKey, readonly ImageName[]>> = {
  boardingPass: ['icon', 'logo', 'footer'],
  coupon: ['icon', 'logo', 'strip'],
  eventTicket: ['icon', 'logo', 'strip', 'background', 'thumbnail'],
  generic: ['icon', 'logo', 'thumbnail'],
  storeCard: ['icon', 'logo', 'strip'],
  // iOS 27: the poster's artwork (Pass Designer and Pass Builder also set it as the background image) and the primary logo.
  posterGeneric: ['icon', 'primaryLogo', 'artwork', 'background'],
};
// What a poster event ticket (iOS 18) adds to an event ticket's images, and a semantic boarding pass (iOS 26) to a boarding pass's.
const POSTER_EVENT_IMAGES: readonly ImageName[] = ['primaryLogo', 'secondaryLogo', 'artwork', 'venueMap'];
const SEMANTIC_BOARDING_IMAGES: readonly ImageName[] = ['primaryLogo'];

const STYLE_KEYS: readonly StyleKey[] = ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard', 'posterGeneric'];

const IMAGE_FILE = /^(icon|logo|strip|background|thumbnail|footer|personalizationLogo|primaryLogo|secondaryLogo|artwork|venueMap)(?:@([23])x)?\.png$/;

/** A file name read as an image slot: `logo@2x.png` → `{ image: 'logo', scale: 2 }`. */
export function imageSlot(fileName: string): { image: ImageName; scale: 1 | 2 | 3 } | undefined {
  const match = IMAGE_FILE.exec(fileName);
  if (match === null) return undefined;
  return { image: match[1] as ImageName, scale: match[2] === undefined ? 1 : (Number(match[2]) as 2 | 3) };
}

/**
 * The style keys and style schemes of a pass object that decide its images.
 *
 * @example
 * ```ts
 * imageLayout({ generic: {}, posterGeneric: {} }); // { styles: ['generic', 'posterGeneric'], posterEventTicket: false, semanticBoardingPass: false }
 * ```
 */
export function imageLayout(pass: unknown): ImageLayout {
  if (typeof pass !== 'object' || pass === null) return { styles: [], posterEventTicket: false, semanticBoardingPass: false };
  const styles = STYLE_KEYS.filter((style) => Object.hasOwn(pass, style));
  const schemes = Object.hasOwn(pass, 'preferredStyleSchemes') ? (pass as { readonly preferredStyleSchemes?: unknown }).preferredStyleSchemes : undefined;
  const asks = (scheme: string): boolean => Array.isArray(schemes) && (schemes as readonly unknown[]).includes(scheme);
  return { styles, posterEventTicket: asks('posterEventTicket'), semanticBoardingPass: asks('semanticBoardingPass') };
}

function layoutOf(style: PassStyle | ImageLayout): ImageLayout {
  return typeof style === 'string' ? { styles: [style], posterEventTicket: false, semanticBoardingPass: false } : style;
}

/** Whether `style` (in `layout`) shows `image`. */
function shows(image: ImageName, style: StyleKey, layout: ImageLayout, hasStrip: boolean): boolean {
  if (style === 'eventTicket' && layout.posterEventTicket && POSTER_EVENT_IMAGES.includes(image)) return true;
  if (style === 'boardingPass' && layout.semanticBoardingPass && SEMANTIC_BOARDING_IMAGES.includes(image)) return true;
  if (!STYLE_IMAGES[style].includes(image)) return false;
  return !(style === 'eventTicket' && hasStrip && (image === 'background' || image === 'thumbnail'));
}

/**
 * Why a pass of `style` (a style, or a pass's {@link imageLayout}) does not
 * show `image`, or `undefined` when it does — when any of its style keys does.
 * `hasStrip`: an event ticket with a strip shows neither background nor thumbnail.
 */
export function unusedReason(image: ImageName, style: PassStyle | ImageLayout, hasStrip: boolean, hasNfc: boolean): string | undefined {
  if (image === 'personalizationLogo') return hasNfc ? undefined : 'only passes with "nfc" are personalized';
  const layout = layoutOf(style);
  if (layout.styles.length === 0 || layout.styles.some((each) => shows(image, each, layout, hasStrip))) return undefined;
  if (image === 'secondaryLogo' || image === 'venueMap')
    return `only poster event tickets (an eventTicket with "posterEventTicket" in preferredStyleSchemes) show a ${image} image`;
  if (image === 'primaryLogo' || image === 'artwork') {
    return `only posterGeneric passes and poster event tickets (an eventTicket with "posterEventTicket" in preferredStyleSchemes) show ${image === 'artwork' ? 'an artwork' : 'a primaryLogo'} image${image === 'primaryLogo' ? ', and semantic boarding passes' : ''}`;
  }
  const [first] = layout.styles;
  if (layout.styles.length === 1 && first === 'eventTicket' && hasStrip && (image === 'background' || image === 'thumbnail')) {
    return `an event ticket with a strip image does not show a ${image} image`;
  }
  return `${layout.styles.length === 1 ? `a ${first ?? ''} pass` : `a pass with ${layout.styles.join(' and ')}`} does not show a ${image} image`;
}

type Size = readonly [number, number];

/**
 * Apple's guidance, in points: `max` the largest size shown, `min` the
 * smallest useful one. With a pass's {@link imageLayout}, the largest of its
 * styles' guidance (an image one style shows larger is not too large).
 */
export function sizeGuidance(image: ImageName, style: PassStyle | ImageLayout | undefined): { max?: Size; min?: Size } {
  if (style === undefined || typeof style === 'string') return styleGuidance(image, style);
  const maxima = style.styles.map((each) => styleGuidance(image, each).max).filter((max): max is Size => max !== undefined);
  const guidance = styleGuidance(image, style.styles[0]);
  if (maxima.length <= 1) return guidance;
  return { ...guidance, max: [Math.max(...maxima.map(([width]) => width)), Math.max(...maxima.map(([, height]) => height))] };
}

function styleGuidance(image: ImageName, style: StyleKey | undefined): { max?: Size; min?: Size } {
  switch (image) {
    case 'icon':
      return { min: [29, 29] };
    case 'logo':
      return { max: [160, 50] };
    case 'thumbnail':
      return { max: [90, 90] };
    case 'strip':
      return { max: [375, style === 'eventTicket' ? 98 : style === 'coupon' || style === 'storeCard' ? 144 : 123] };
    case 'background':
      // A poster generic pass's background is its poster artwork.
      return { max: style === 'posterGeneric' ? [358, 448] : [180, 220] };
    case 'footer':
      return { max: [295, 15] };
    case 'personalizationLogo':
      return { max: [150, 40] };
    // Human Interface Guidelines → Wallet (January 2025): height 30, width 30–126; height 12, width 12–135; 358×448.
    case 'primaryLogo':
      return { max: [126, 30] };
    case 'secondaryLogo':
      return { max: [135, 12] };
    case 'artwork':
      return { max: [358, 448] };
    case 'venueMap':
      return {};
  }
}
