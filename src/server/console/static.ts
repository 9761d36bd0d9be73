// The console's built files (Vite's output): read from their folder once, served from memory.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder `npm run build` writes the console into: `dist/console/` of the package (from src/ or dist/, three levels up). */
export const DEFAULT_CONSOLE_DIR: string = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

/** One built file: its bytes, type, and whether its name holds its content's hash (cached for good). */
export interface ConsoleFile {
  readonly bytes: Uint8Array;
  readonly type: string;
  readonly immutable: boolean;
}

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  webmanifest: 'application/manifest+json',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  woff: 'font/woff',
  txt: 'text/plain; charset=utf-8',
  map: 'application/json',
};

// Vite's hashed names: name-<8 or more base64url characters>.ext
const HASHED = /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
// A console of more files than this is not the console.
const MAX_FILES = 2000;

/**
 * The built console in memory: its files by path below the folder
 * (`index.html`, `assets/index-3f2a….js`), read on first use; `undefined`
 * while the folder has no `index.html` (not built), read again at the next
 * request. No path from a request ever reaches the file system.
 *
 * @example
 * ```ts
 * const files = createConsoleFiles('/srv/passmint/dist/console');
 * const index = (await files.load())?.get('index.html');
 * ```
 */
export function createConsoleFiles(dir: string): { load(): Promise<ReadonlyMap<string, ConsoleFile> | undefined> } {
  let loaded: Promise<ReadonlyMap<string, ConsoleFile> | undefined> | undefined;
  const read = async (): Promise<ReadonlyMap<string, ConsoleFile> | undefined> => {
    const index = await stat(join(dir, 'index.html')).catch(() => undefined);
    if (index === undefined || !index.isFile()) return undefined;
    const files = new Map<string, ConsoleFile>();
    const walk = async (folder: string): Promise<void> => {
      for (const entry of await readdir(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.isFile() && files.size < MAX_FILES) {
          const name = relative(dir, path).split(sep).join('/');
          const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
          files.set(name, {
            bytes: await readFile(path),
            type: TYPES[extension] ?? 'application/octet-stream',
            immutable: name.startsWith('assets/') && HASHED.test(name),
          });
        }
      }
    };
    await walk(dir);
    return files;
  };
  return {
    load() {
      loaded ??= read().then((files) => {
        // Not built yet: look again next time.
        if (files === undefined) loaded = undefined;
        return files;
      });
      return loaded;
    },
  };
}
