import { loss } from './loss.js';
import type { GoogleLoss } from './types.js';

/** Google's Image: a URL Google fetches. */
export type GoogleImage = { sourceUri: { uri: string } };

/** Bundle images found through `imageUrl`: the logo and the hero image Google has slots for, and losses for the rest. */
export interface MappedImages {
  readonly logo?: GoogleImage;
  readonly hero?: GoogleImage;
  readonly losses: GoogleLoss[];
}

const image = (uri: string): GoogleImage => ({ sourceUri: { uri } });

/**
 * Asks `imageUrl` for each Apple image (`logo.png`, `strip.png` …): the logo
 * becomes Google's logo, the strip (or else the thumbnail) the hero image;
 * the others have no Google slot and are reported. Images live in the bundle,
 * not in pass.json, so their losses point at the whole pass (`''`).
 */
export function mapImages(imageUrl: ((path: string) => string | undefined) | undefined): MappedImages {
  if (imageUrl === undefined) return { losses: [] };
  const url = (name: string): string | undefined => imageUrl(`${name}.png`);
  const losses: GoogleLoss[] = [];
  const logo = url('logo');
  const strip = url('strip');
  const thumbnail = url('thumbnail');
  const hero = strip ?? thumbnail;
  if (strip !== undefined && thumbnail !== undefined)
    losses.push(loss('google-image-dropped', '', 'Google Wallet has one hero image: the strip is used, thumbnail.png is left out.'));
  // iOS 18+ poster images (and the enrollment logo) have no Google slot either.
  for (const name of ['background', 'footer', 'icon', 'artwork', 'primaryLogo', 'secondaryLogo', 'venueMap', 'personalizationLogo']) {
    if (url(name) !== undefined) losses.push(loss('google-image-dropped', '', `Google Wallet has no slot for ${name}.png: it is left out.`));
  }
  return {
    ...(logo === undefined ? {} : { logo: image(logo) }),
    ...(hero === undefined ? {} : { hero: image(hero) }),
    losses,
  };
}
