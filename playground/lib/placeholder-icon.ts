import { shownColor } from './colors.js';

/**
 * Draws a stand-in icon (29×29 pt at one density): the pass's background color
 * with the first letter of its logo text in the foreground color, as PNG bytes.
 * Wallet refuses a pass without `icon.png`; this lets a first signed pass be
 * made before the real artwork exists.
 *
 * @example
 * ```ts
 * const png = await placeholderIcon(pass, 2); // 58×58
 * ```
 */
export async function placeholderIcon(
  pass: { backgroundColor?: unknown; foregroundColor?: unknown; logoText?: unknown; organizationName?: unknown },
  scale: 1 | 2 | 3,
): Promise<Uint8Array> {
  const size = 29 * scale;
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('the browser has no 2D canvas');
  context.fillStyle = shownColor(pass.backgroundColor)?.rgb ?? 'rgb(60, 65, 76)';
  context.beginPath();
  context.roundRect(0, 0, size, size, 6 * scale);
  context.fill();
  const name =
    typeof pass.logoText === 'string' && pass.logoText.trim() !== '' ? pass.logoText : typeof pass.organizationName === 'string' ? pass.organizationName : '';
  const letter = [...name.trim()][0]?.toUpperCase() ?? '';
  context.fillStyle = shownColor(pass.foregroundColor)?.rgb ?? 'rgb(255, 255, 255)';
  context.font = `600 ${Math.round(18 * scale)}px system-ui, sans-serif`;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(letter, size / 2, size / 2 + scale);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (blob === null) throw new Error('the browser could not make a PNG');
  return new Uint8Array(await blob.arrayBuffer());
}
