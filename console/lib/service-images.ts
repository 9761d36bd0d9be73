import { unzipSync } from 'fflate';
import { call, getJson, type Page, passPath } from './api.js';

const IMAGE = /^(icon|logo|strip|thumbnail|background|footer|artwork|primaryLogo|secondaryLogo|venueMap)(@[23]x)?\.png$/;

/**
 * The template's images as the service holds them, for the designer's preview:
 * each file read with `GET /v1/templates/{id}/files/{path}` where the service
 * has that route, else taken from the package of one of the template's passes.
 */
export async function templateImages(templateId: number): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  let paths: string[] = [];
  try {
    const files = await getJson<{ items: { path: string }[] }>(`/v1/templates/${templateId}/files`);
    paths = files.items.map((file) => file.path).filter((path) => IMAGE.test(path));
  } catch {
    return found;
  }
  if (paths.length === 0) return found;
  try {
    for (const path of paths) {
      const response = await call(`/v1/templates/${templateId}/files/${path.split('/').map(encodeURIComponent).join('/')}`, { accept: 'image/png' });
      found.set(path, new Uint8Array(await response.arrayBuffer()));
    }
    return found;
  } catch {
    found.clear();
  }
  try {
    const passes = await getJson<Page<{ passTypeIdentifier: string; serialNumber: string }>>(`/v1/passes?templateId=${templateId}&limit=1`);
    const first = passes.items[0];
    if (first === undefined) return found;
    const response = await call(`${passPath(first.passTypeIdentifier, first.serialNumber)}/pkpass`, { accept: 'application/vnd.apple.pkpass' });
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()), { filter: (file) => IMAGE.test(file.name) });
    for (const [path, bytes] of Object.entries(files)) found.set(path, bytes);
  } catch {
    // No images: the preview shows the stand-in icon.
  }
  return found;
}
