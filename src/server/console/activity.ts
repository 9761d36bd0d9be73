// Wallet's fetches of a pass, on its timeline: they change nothing, so they are written in the background,
// many in one statement (as downloads' events are), and each pass keeps only its latest ones.
import { decodeSegment } from '../../http/route.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { addTimelineEntries, type NewTimelineEntry } from '../db/timeline.js';
import type { SqlQueryable } from '../db/sql.js';

/**
 * Timeline entries written by rounds: while one round is written, the
 * entries that arrive wait and go together in the next.
 *
 * @example
 * ```ts
 * const activity = createActivityBatch(db, { onError: console.error });
 * activity.add({ passTypeIdentifier, serialNumber, kind: 'fetched', detail: { status: 304 } });
 * ```
 */
export interface ActivityBatch {
  /** Queues an entry (dropped when 10,000 already wait: the database is away). */
  add(entry: NewTimelineEntry): void;
  /** Resolves when every entry queued so far is written or dropped. */
  flush(): Promise<void>;
}

const MAX_BATCH = 500;
const MAX_PENDING = 10_000;

/** Makes the batch of one service. An entry whose round fails is dropped (it records no change) and the error told. */
export function createActivityBatch(db: SqlQueryable, options: { readonly onError: (error: unknown) => void }): ActivityBatch {
  let queue: NewTimelineEntry[] = [];
  let writing: Promise<void> | undefined;
  const round = async (): Promise<void> => {
    while (queue.length > 0) {
      const entries = queue.slice(0, MAX_BATCH);
      queue = queue.slice(entries.length);
      try {
        await addTimelineEntries(db, entries);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) options.onError(error);
      }
    }
  };
  const start = (): Promise<void> => {
    writing ??= round().finally(() => {
      writing = undefined;
    });
    return writing;
  };
  return {
    add(entry) {
      if (queue.length >= MAX_PENDING) return;
      queue.push(entry);
      void start();
    },
    async flush() {
      while (writing !== undefined || queue.length > 0) await start();
    },
  };
}

/**
 * The timeline entry of Wallet's fetch of a pass (`GET {base}/v1/passes/{type}/{serial}`
 * answered 200 or 304), or `undefined` for any other request or answer.
 *
 * @example
 * ```ts
 * const entry = walletFetchOf(request, response, '/wallet');
 * ```
 */
export function walletFetchOf(request: Request, response: Response, basePath: string): NewTimelineEntry | undefined {
  if (request.method !== 'GET' || (response.status !== 200 && response.status !== 304)) return undefined;
  const path = new URL(request.url).pathname;
  const prefix = `${basePath}/v1/passes/`;
  if (!path.startsWith(prefix)) return undefined;
  const segments = path.slice(prefix.length).split('/');
  if (segments.length !== 2) return undefined;
  const passTypeIdentifier = decodeSegment(segments[0]!);
  const serialNumber = decodeSegment(segments[1]!);
  if (passTypeIdentifier === undefined || serialNumber === undefined) return undefined;
  return { passTypeIdentifier, serialNumber, kind: 'fetched', detail: { status: response.status } };
}
