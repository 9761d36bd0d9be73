// Which images each style shows, and Apple's size guidance for them.

import type { PassStyle } from '../types.js';

/** Every image name Wallet reads (without density suffix and `.png`). */
export type ImageName = 'icon' | 'logo' | 'strip' | 'background' | 'thumbnail' | 'footer' | 'personalizationLogo';

const STYLE_IMAGES: Readonly<Record<PassStyle, readonly ImageName[]>> = {
  boardingPass: ['icon', 'logo', 'footer'],
  coupon: ['icon', 'logo', 'strip'],
  eventTicket: ['icon', 'logo', 'strip', 'background', 'thumbnail'],
  generic: ['icon', 'logo', 'thumbnail'],
  storeCard: ['icon', 'logo', 'strip'],
};

const IMAGE_FILE = /^(icon|logo|strip|background|thumbnail|footer|personalizationLogo)(?:@([23])x)?\.png$/;

/** A file name read as an image slot: `logo@2x.png` → `{ image: 'logo', scale: 2 }`. */
export function imageSlot(fileName: string): { image: ImageName; scale: 1 | 2 | 3 } | undefined {
  const match = IMAGE_FILE.exec(fileName);
  if (match === null) return undefined;
  return { image: match[1] as ImageName, scale: match[2] === undefined ? 1 : (Number(match[2]) as 2 | 3) };
}

/** The style key of a pass object, if it has one. */
export function styleOf(pass: unknown): PassStyle | undefined {
  if (typeof pass !== 'object' || pass === null) return undefined;
  for (const style of ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard'] as const) {
    if (Object.hasOwn(pass, style)) return style;
  }
  return undefined;
}

/**
 * Why a pass of `style` does not show `image`, or `undefined` when it does.
 * `hasStrip`: an event ticket with a strip shows neither background nor thumbnail.
 */
export function unusedReason(image: ImageName, style: PassStyle, hasStrip: boolean, hasNfc: boolean): string | undefined {
  if (image === 'personalizationLogo') return hasNfc ? undefined : 'only passes with "nfc" are personalized';
  if (!STYLE_IMAGES[style].includes(image)) return `a ${style} pass does not show a ${image} image`;
  if (style === 'eventTicket' && hasStrip && (image === 'background' || image === 'thumbnail')) {
    return `an event ticket with a strip image does not show a ${image} image`;
  }
  return undefined;
}

/** Apple's guidance, in points: `max` the largest size shown, `min` the smallest useful one. */
export function sizeGuidance(image: ImageName, style: PassStyle | undefined): { max?: readonly [number, number]; min?: readonly [number, number] } {
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
      return { max: [180, 220] };
    case 'footer':
      return { max: [295, 15] };
    case 'personalizationLogo':
      return { max: [150, 40] };
  }
}
