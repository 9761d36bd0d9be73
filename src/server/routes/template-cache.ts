import type { SqlQueryable } from '../db/sql.js';
import { findTemplate, type TemplateRecord } from '../db/templates.js';
import { templateIdOf } from '../http/paging.js';
import { templateOf } from './lookups.js';

/** Templates a process keeps in memory for creates. */
const TEMPLATES_HELD = 256;

/**
 * Templates as this process last read them, the most recent 256: creates
 * render from the copy in memory (their insert checks the version, so an old
 * copy costs a second try, never a pass rendered from an old template), and
 * packing finds a pass's template version without a query.
 */
export interface TemplateCache {
  /** The copy in memory of template `id`, if any. */
  held(id: number): TemplateRecord | undefined;
  /** Keeps a template just read (the oldest copy goes when 256 are held). */
  hold(record: TemplateRecord): TemplateRecord;
  /** The template as this process last read it; read when not held. 404 `template-not-found`. */
  cached(text: string): Promise<TemplateRecord>;
  /** The template read now (and the copy in memory replaced). 404 `template-not-found`. */
  fresh(text: string): Promise<TemplateRecord>;
  /**
   * The template at `version` (the one a pass's row names, read with it): the copy in memory when it is that
   * version, else read through `sql` (and held); `undefined` when it is gone.
   */
  at(sql: SqlQueryable, id: number, version: number | undefined): Promise<TemplateRecord | undefined>;
}

/**
 * The process's template cache.
 *
 * @example
 * ```ts
 * const templates = createTemplateCache(db);
 * const template = await templates.cached(params.id);
 * ```
 */
export function createTemplateCache(db: SqlQueryable): TemplateCache {
  const templates = new Map<number, TemplateRecord>();
  const hold = (record: TemplateRecord): TemplateRecord => {
    templates.delete(record.template.id);
    if (templates.size >= TEMPLATES_HELD) templates.delete(templates.keys().next().value!);
    templates.set(record.template.id, record);
    return record;
  };
  const fresh = async (text: string): Promise<TemplateRecord> => {
    const id = templateIdOf(text);
    if (id !== undefined) templates.delete(id);
    return hold(await templateOf(db, text));
  };
  return {
    held: (id) => templates.get(id),
    hold,
    fresh,
    async cached(text) {
      const id = templateIdOf(text);
      return (id === undefined ? undefined : templates.get(id)) ?? fresh(text);
    },
    async at(sql, id, version) {
      const held = templates.get(id);
      if (held !== undefined && version !== undefined && held.version === version) return held;
      const record = await findTemplate(sql, id);
      return record === undefined ? undefined : hold(record);
    },
  };
}
