// Images are kept in this browser's IndexedDB, never in the URL: a share link
// names each image by a short hash of its bytes, and a browser that has the
// image (the one that made the link) finds it here by that hash.

const DB_NAME = 'passmint-playground';
const STORE = 'images';

/** One stored image: its bytes under the short hash a link names it by. */
export interface StoredImage {
  readonly hash: string;
  readonly bytes: Uint8Array;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB refused to open'));
  });
}

function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then((db) =>
    new Promise<T>((resolve, reject) => {
      const request = work(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
    }).finally(() => db.close()),
  );
}

/**
 * Stores image bytes under their hash (content-addressed, so storing twice costs nothing).
 *
 * @example
 * ```ts
 * await saveImage({ hash: 'a1b2c3d4e5f6', bytes });
 * ```
 */
export async function saveImage(image: StoredImage): Promise<void> {
  await run('readwrite', (store) => store.put(image.bytes, image.hash));
}

/**
 * The bytes stored under a hash, or `undefined` (also when IndexedDB is unavailable).
 *
 * @example
 * ```ts
 * const bytes = await loadImage('a1b2c3d4e5f6');
 * ```
 */
export async function loadImage(hash: string): Promise<Uint8Array | undefined> {
  try {
    const found: unknown = await run('readonly', (store) => store.get(hash));
    return found instanceof Uint8Array ? found : undefined;
  } catch {
    return undefined;
  }
}
