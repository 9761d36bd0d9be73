/**
 * Offers bytes as a file download (no request leaves the page: an object URL).
 *
 * @example
 * ```ts
 * downloadBytes(pkpass, 'pass.pkpass', 'application/vnd.apple.pkpass');
 * ```
 */
export function downloadBytes(bytes: Uint8Array, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}
