import { PassValidationError, RenderError, TemplateError } from '../../errors.js';
import { buildPass } from '../../pass/build.js';
import type { PreparedFiles } from '../../pkpass/prepare.js';
import { compileTemplate, type CompiledTemplate } from '../../template/compile.js';
import type { JsonObject, Pass, PassTemplate, TemplateValues } from '../../types.js';
import { createByteCache } from './byte-cache.js';
import { createPrepareQueue } from './prepare-queue.js';
import { unstorableValues } from './values-rule.js';
import { originOf } from '../http/origin.js';
import { ServiceProblem } from '../../http/problem.js';
import type { SqlQueryable } from '../db/sql.js';
import { templateFiles, type TemplateRecord } from '../db/store.js';

const CACHE_SIZE = 64;

/**
 * Most characters a rendered pass body may have. A small template that uses
 * one placeholder 10,000 times, given a 100 KB value, would render a
 * gigabyte: refused before rendering, as a 422, not a 500 out of memory.
 */
const MAX_RENDERED_CHARACTERS = 1024 * 1024;

/** The description's JSON length, and how often each `${name}` appears in it (an upper bound is enough). */
interface PlaceholderUses {
  readonly base: number;
  readonly counts: ReadonlyMap<string, number>;
}

function placeholderUses(template: PassTemplate): PlaceholderUses {
  const text = JSON.stringify(template.description) ?? '';
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/\$\{([^}]*)\}/g)) counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  return { base: text.length, counts };
}

/** An upper bound on the rendered body's size, stopping as soon as it passes the limit. */
function renderedSize(uses: PlaceholderUses, values: JsonObject): number {
  let size = uses.base;
  for (const [name, count] of uses.counts) {
    if (!Object.hasOwn(values, name)) continue;
    const value = values[name];
    size += count * (typeof value === 'string' ? value.length : jsonLength(value));
    if (size > MAX_RENDERED_CHARACTERS) break;
  }
  return size;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    // Too deep to serialize: rendering refuses it with its own 422.
    return 0;
  }
}

/** A small insertion-ordered cache: the oldest entry goes when it is full. */
function remember<TValue>(cache: Map<string, TValue>, key: string, make: () => TValue): TValue {
  const found = cache.get(key);
  if (found !== undefined) return found;
  const value = make();
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

/** The bytes a prepared bundle holds in memory (its stored and, where different, compressed entries). */
function preparedBytes(prepared: PreparedFiles): number {
  let bytes = 0;
  for (const file of prepared.files) bytes += file.stored.data.byteLength + (file.compressed === file.stored ? 0 : file.compressed.data.byteLength);
  return bytes;
}

/**
 * Renders passes from stored templates and prepares their files once per
 * template version (both cached, keyed by id and version, so a change to a
 * template or its files is picked up at once). Files are prepared one bundle
 * and one file at a time with the event loop free in between, and kept in a
 * cache bounded by `limits.preparedFilesCacheBytes`.
 */
export interface PassBuilder {
  /** Renders a pass; 422 problems for bad values or a pass Wallet would refuse. */
  build(
    request: Request,
    record: TemplateRecord,
    values: JsonObject,
    ids: {
      readonly serialNumber?: string | undefined;
      readonly authenticationToken?: string | undefined;
      /**
       * The pass's current one, kept when the service has no public URL rather than one made from this
       * request's Host (which the caller chooses: an internal name, or a forged one on a call anyone can make).
       */
      readonly webServiceURL?: string | undefined;
    },
  ): Pass;
  /** The template's files, hashed and checked once per version. */
  files(record: TemplateRecord): Promise<PreparedFiles>;
}

/**
 * What a pass builder needs: where template files are read, the issuer
 * written into passes, the public URL (`webServiceURL`), and the memory for
 * prepared files.
 *
 * @example
 * ```ts
 * const options: PassBuilderOptions = { db, issuer: { teamIdentifier: 'A1B2C3D4E5', organizationName: 'Example' }, publicUrl: undefined, preparedFilesCacheBytes: 64 << 20 };
 * ```
 */
export interface PassBuilderOptions {
  readonly db: SqlQueryable;
  readonly issuer: { readonly teamIdentifier: string; readonly organizationName: string };
  /** The team of a pass type's certificate, written into its passes instead of `issuer.teamIdentifier`. */
  readonly teamFor?: ((passTypeIdentifier: string) => string | undefined) | undefined;
  /** Where the service is reached (an origin); otherwise each request's own. */
  readonly publicUrl: string | undefined;
  /** The most bytes of prepared template files held in memory. */
  readonly preparedFilesCacheBytes: number;
}

/**
 * The service's pass builder (see {@link PassBuilder}).
 *
 * @example
 * ```ts
 * const builder = createPassBuilder(options);
 * const pass = builder.build(request, template, { name: 'Ada' }, { serialNumber: 'M-1' });
 * ```
 */
export function createPassBuilder(options: PassBuilderOptions): PassBuilder {
  const { db, issuer, publicUrl } = options;
  const compiled = new Map<string, CompiledTemplate>();
  const uses = new Map<string, PlaceholderUses>();
  const prepared = createByteCache<PreparedFiles>({ maxBytes: options.preparedFilesCacheBytes });
  const preparing = new Map<string, Promise<PreparedFiles>>();
  const queue = createPrepareQueue();
  return {
    build(request, record, values, ids) {
      // Every URL client resolves a path segment "." or ".." before sending: such a pass could never be reached by its links.
      if (ids.serialNumber === '.' || ids.serialNumber === '..') {
        const message = '"serialNumber" "." or ".." cannot be a URL path segment (clients resolve it away)';
        throw new ServiceProblem(422, 'invalid-body', `${message}.`, {
          issues: [{ severity: 'error', code: 'unsafe-serial-number', message, path: '/serialNumber' }],
        });
      }
      const unstorable = unstorableValues(values);
      if (unstorable !== undefined) throw unstorable;
      const key = `${record.template.id}:${record.version}`;
      const webServiceURL = (publicUrl === undefined ? ids.webServiceURL : undefined) ?? `${originOf(publicUrl, request)}/wallet`;
      if (
        renderedSize(
          remember(uses, key, () => placeholderUses(record.template as PassTemplate)),
          values,
        ) > MAX_RENDERED_CHARACTERS
      ) {
        throw new ServiceProblem(422, 'invalid-values', `With these values the pass would be larger than ${MAX_RENDERED_CHARACTERS} characters.`, {
          issues: [
            { severity: 'error', code: 'invalid-value', message: `The rendered pass would be larger than ${MAX_RENDERED_CHARACTERS} characters`, path: '' },
          ],
        });
      }
      try {
        const template = remember(compiled, key, () => compileTemplate(record.template as PassTemplate));
        return buildPass(
          template,
          values as TemplateValues,
          {
            ...issuer,
            teamIdentifier: options.teamFor?.((record.template as PassTemplate).passType) ?? issuer.teamIdentifier,
            webServiceURL,
            ...(ids.serialNumber === undefined ? {} : { serialNumber: ids.serialNumber }),
            ...(ids.authenticationToken === undefined ? {} : { authenticationToken: ids.authenticationToken }),
          },
          // A local service (http://127.0.0.1) is for development devices, which accept plain http.
          { allowHttp: webServiceURL.startsWith('http:') },
        );
      } catch (error) {
        if (error instanceof RenderError) throw new ServiceProblem(422, 'invalid-values', error.message, { issues: error.issues });
        if (error instanceof PassValidationError) throw new ServiceProblem(422, 'invalid-pass', error.message, { issues: error.issues });
        if (error instanceof TemplateError) throw new ServiceProblem(422, 'invalid-template', error.message, { issues: error.issues });
        throw error;
      }
    },
    async files(record) {
      const id = String(record.template.id);
      const version = String(record.version);
      const found = prepared.get(id, version);
      if (found !== undefined) return found;
      const key = `${id}:${version}`;
      let running = preparing.get(key);
      if (running === undefined) {
        running = (async () => {
          try {
            const files = await queue.prepare(await templateFiles(db, record.template.id));
            prepared.set(id, version, files, preparedBytes(files));
            return files;
          } finally {
            // A failed preparation is not kept: the next request tries again.
            preparing.delete(key);
          }
        })();
        preparing.set(key, running);
      }
      return running;
    },
  };
}
