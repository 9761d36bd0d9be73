import { computed, signal } from '@preact/signals';
import type { ReadonlySignal } from '@preact/signals';
import type { PassStyle } from '../src/index.js';
import { type ImageLayout, type ImageName, pngSize, sizeGuidance, unusedReason } from '../src/index.js';
import { loadImage, saveImage } from './lib/image-db.js';
import { STAND_IN_ICONS } from './lib/stand-in-icon.js';

// The pass's images: bytes in memory (and in IndexedDB, by hash), an object URL for
// the preview, and what Apple's size guidance says about each.

/** The image slots a pass can have, in the order the page shows them. */
export const IMAGE_NAMES: readonly ImageName[] = [
  'icon',
  'logo',
  'strip',
  'thumbnail',
  'background',
  'footer',
  'artwork',
  'primaryLogo',
  'secondaryLogo',
  'venueMap',
];
/** A bundle path of one of the slots: `logo@2x.png`, `artwork@3x.png`. */
export const IMAGE_FILE: RegExp = /^(icon|logo|strip|thumbnail|background|footer|artwork|primaryLogo|secondaryLogo|venueMap)(@[23]x)?\.png$/;
export const SCALES: readonly (1 | 2 | 3)[] = [1, 2, 3];

/** One image file of the pass, e.g. `logo@2x.png`. */
export interface PassImage {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** First 12 hex digits of the SHA-256 of the bytes: how a share link names the image. */
  readonly hash: string;
  /** An object URL for `<img>`. */
  readonly url: string;
  /** The average color (alpha-weighted) of a strip, background or artwork image, for the contrast checks; read once, when the image is added. */
  readonly average?: { readonly r: number; readonly g: number; readonly b: number };
}

export type ImageIssue = { readonly severity: 'error' | 'warning'; readonly message: string };

/** Bundle path of a slot: `logo`, 2 → `logo@2x.png`. */
export const imagePath = (name: ImageName, scale: 1 | 2 | 3): string => `${name}${scale === 1 ? '' : `@${scale}x`}.png`;

const base64Bytes = (base64: string): Uint8Array => Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));

/** The stand-in icon's files by short hash: a share link naming them opens anywhere (no browser has to have stored them). */
const STAND_IN_BYTES: ReadonlyMap<string, Uint8Array> = new Map(STAND_IN_ICONS.map((icon) => [icon.hash, base64Bytes(icon.base64)]));

/** The stand-in icon at @1x, @2x and @3x, made at once (its sizes and hashes are known), so the first render has it. */
function standInIcon(): Map<string, PassImage> {
  return new Map(
    STAND_IN_ICONS.map((icon) => {
      const bytes = STAND_IN_BYTES.get(icon.hash) as Uint8Array;
      const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
      return [icon.path, { path: icon.path, bytes, width: icon.width, height: icon.height, hash: icon.hash, url }] as const;
    }),
  );
}

/** The pass's images; every example starts with the stand-in icon Wallet needs (replace it with your own). */
export const images = signal<ReadonlyMap<string, PassImage>>(standInIcon());

/** Whether any density of the icon is given. */
export const hasIcon = (map: ReadonlyMap<string, PassImage>): boolean => SCALES.some((scale) => map.has(imagePath('icon', scale)));

/** Puts the stand-in icon into the empty icon slot (an example being loaded). */
export function addStandInIcon(): void {
  if (hasIcon(images.value)) return;
  images.value = new Map([...images.value, ...standInIcon()]);
}
/** Files given for a slot that could not be read as an image: path → why (listed with the issues until replaced or the slot is emptied). */
export const imageErrors = signal<Readonly<Record<string, string>>>({});

function setImageError(path: string, message: string | undefined): void {
  const next = Object.fromEntries(Object.entries(imageErrors.value).filter(([name]) => name !== path));
  if (message !== undefined) next[path] = message;
  imageErrors.value = next;
}

/** Images a share link named that this browser does not have: path → hash, kept in the link until replaced or dropped. */
export const missingImages = signal<Readonly<Record<string, string>>>({});

/** Which slots a style shows, and why the others are not shown. */
export function slotUse(name: ImageName, style: PassStyle | ImageLayout, hasStrip: boolean): string | undefined {
  return unusedReason(name, style, hasStrip, false);
}

/** Apple's guidance for one slot at one density, in pixels, as a sentence. */
export function guidanceText(name: ImageName, style: PassStyle | ImageLayout, scale: 1 | 2 | 3): string {
  const { max, min } = sizeGuidance(name, style);
  if (max !== undefined) return `up to ${max[0] * scale}×${max[1] * scale} px`;
  if (min !== undefined) return `${min[0] * scale}×${min[1] * scale} px`;
  return '';
}

/**
 * What is wrong with an image in a slot, by Apple's guidance (sizes in points × the density).
 *
 * @example
 * ```ts
 * checkImage('logo', 'generic', 1, { width: 400, height: 50, ...image }); // [{ severity: 'warning', message: '400×50 px is larger than 160×50 px: …' }]
 * ```
 */
export function checkImage(name: ImageName, style: PassStyle | ImageLayout, scale: 1 | 2 | 3, image: PassImage): ImageIssue[] {
  const found: ImageIssue[] = [];
  const { max, min } = sizeGuidance(name, style);
  const size = `${image.width}×${image.height} px`;
  if (max !== undefined && (image.width > max[0] * scale || image.height > max[1] * scale)) {
    const effect = name === 'strip' || name === 'background' ? 'Wallet crops or scales it' : 'Wallet scales it down';
    found.push({ severity: 'warning', message: `${size} is larger than ${max[0] * scale}×${max[1] * scale} px: ${effect}.` });
  }
  if (min !== undefined && (image.width < min[0] * scale || image.height < min[1] * scale)) {
    found.push({ severity: 'warning', message: `${size} is smaller than ${min[0] * scale}×${min[1] * scale} px: Wallet scales it up, blurred.` });
  }
  if (name === 'icon' && image.width !== image.height) found.push({ severity: 'warning', message: `${size} is not square.` });
  return found;
}

/** The densest image of a slot, for the preview. */
export function bestImage(map: ReadonlyMap<string, PassImage>, name: ImageName): PassImage | undefined {
  return map.get(imagePath(name, 3)) ?? map.get(imagePath(name, 2)) ?? map.get(imagePath(name, 1));
}

/** Path → short hash, what a share link carries: the images here, and those a link named that this browser lacks. */
export const imageRefs: ReadonlySignal<Readonly<Record<string, string>>> = computed(() => ({
  ...missingImages.value,
  ...Object.fromEntries([...images.value.values()].map((image) => [image.path, image.hash])),
}));

/** The files for a package: path → bytes. */
export const imageFiles: ReadonlySignal<Readonly<Record<string, Uint8Array>>> = computed(() =>
  Object.fromEntries([...images.value.values()].map((image) => [image.path, image.bytes])),
);

async function shortHash(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return [...digest.subarray(0, 6)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Any image the browser can decode, as PNG bytes (Wallet reads PNG only). */
async function asPng(bytes: Uint8Array): Promise<Uint8Array> {
  if (pngSize(bytes) !== undefined) return bytes;
  const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]));
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (blob === null) throw new Error('the browser could not convert the image to PNG');
  return new Uint8Array(await blob.arrayBuffer());
}

/** The average color of an image, drawn down to 16×16 (the browser averages as it scales); `undefined` when it cannot be decoded. */
async function averageColor(url: string): Promise<PassImage['average']> {
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 16;
    canvas.height = 16;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (context === null) return undefined;
    context.drawImage(image, 0, 0, 16, 16);
    const data = context.getImageData(0, 0, 16, 16).data;
    let r = 0;
    let g = 0;
    let b = 0;
    let weight = 0;
    for (let index = 0; index < data.length; index += 4) {
      const alpha = (data[index + 3] ?? 0) / 255;
      r += (data[index] ?? 0) * alpha;
      g += (data[index + 1] ?? 0) * alpha;
      b += (data[index + 2] ?? 0) * alpha;
      weight += alpha;
    }
    return weight === 0 ? undefined : { r: Math.round(r / weight), g: Math.round(g / weight), b: Math.round(b / weight) };
  } catch {
    return undefined;
  }
}

async function makeImage(path: string, given: Uint8Array): Promise<PassImage> {
  const bytes = await asPng(given);
  const size = pngSize(bytes);
  if (size === undefined) throw new Error('no PNG size could be read');
  const hash = await shortHash(bytes);
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' }));
  // Only the images text is drawn on are averaged (for the contrast checks).
  const average = /^(strip|background|artwork)(@[23]x)?\.png$/.test(path) ? await averageColor(url) : undefined;
  return { path, bytes, ...size, hash, url, ...(average === undefined ? {} : { average }) };
}

function put(image: PassImage | undefined, path: string): void {
  const next = new Map(images.value);
  const old = next.get(path);
  if (old !== undefined) URL.revokeObjectURL(old.url);
  if (image === undefined) next.delete(path);
  else next.set(path, image);
  images.value = next;
}

/**
 * Puts an image into a slot (converting other formats to PNG) and stores it in IndexedDB.
 * Rejects with a readable message when the bytes are not an image.
 *
 * @example
 * ```ts
 * await setImage('logo@2x.png', new Uint8Array(await file.arrayBuffer()));
 * ```
 */
export async function setImage(path: string, bytes: Uint8Array): Promise<void> {
  let image: PassImage;
  try {
    image = await makeImage(path, bytes);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const message = `not an image this browser can read (${detail})`;
    setImageError(path, message);
    throw new Error(`${path} is ${message}`);
  }
  setImageError(path, undefined);
  put(image, path);
  missingImages.value = Object.fromEntries(Object.entries(missingImages.value).filter(([name]) => name !== path));
  await saveImage({ hash: image.hash, bytes: image.bytes }).catch(() => undefined);
}

/** Empties a slot. */
export function removeImage(path: string): void {
  setImageError(path, undefined);
  put(undefined, path);
}

/**
 * Replaces every image (a .pkpass loaded as a template). Only the six slots' files are
 * taken: localized folders, pass.strings and personalization files have no slot here.
 *
 * @example
 * ```ts
 * await replaceImages((await readPass(bytes)).files);
 * ```
 */
export async function replaceImages(files: ReadonlyMap<string, Uint8Array>): Promise<void> {
  for (const image of images.value.values()) URL.revokeObjectURL(image.url);
  const next = new Map<string, PassImage>();
  for (const [path, bytes] of files) {
    if (!IMAGE_FILE.test(path)) continue;
    try {
      const image = await makeImage(path, bytes);
      next.set(path, image);
      await saveImage({ hash: image.hash, bytes: image.bytes }).catch(() => undefined);
    } catch {
      // Not an image: the inspector lists it; the editor has no slot for it.
    }
  }
  images.value = next;
  missingImages.value = {};
}

/** Stops naming the images this browser does not have (they leave the share link). */
export function dropMissingImages(): void {
  missingImages.value = {};
}

/**
 * Finds the images a share link names in this browser's IndexedDB; the rest are listed as missing.
 *
 * @example
 * ```ts
 * await restoreImages({ 'logo@2x.png': '3fa4c0d2e1b9' });
 * missingImages.value; // {} when this browser has it
 * ```
 */
export async function restoreImages(refs: Readonly<Record<string, string>>): Promise<void> {
  const next = new Map<string, PassImage>();
  const missing: Record<string, string> = {};
  const kept = new Set<PassImage>();
  for (const [path, hash] of Object.entries(refs)) {
    // An image the page already holds (the stand-in icon a link names, say) is kept as it is: nothing to read or decode.
    const held = images.value.get(path);
    if (held !== undefined && held.hash === hash) {
      next.set(path, held);
      kept.add(held);
      continue;
    }
    const bytes = STAND_IN_BYTES.get(hash) ?? (await loadImage(hash));
    if (bytes === undefined) {
      missing[path] = hash;
      continue;
    }
    try {
      next.set(path, await makeImage(path, bytes));
    } catch {
      missing[path] = hash;
    }
  }
  for (const image of images.value.values()) if (!kept.has(image)) URL.revokeObjectURL(image.url);
  images.value = next;
  missingImages.value = missing;
}
