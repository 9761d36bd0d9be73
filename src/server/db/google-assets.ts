// What Google needs of a template's files: each file's SHA-256 (its public
// image URL names it) and the localized strings. Computed by the database
// (image bytes stay there) once per template version, then kept in memory.
import { parsePassStrings } from '../../pkpass/strings.js';
import type { SqlQueryable } from './sql.js';

/** A template's files as Google Wallet uses them. */
export interface TemplateAssets {
  /** SHA-256 (hex) by bundle path. */
  readonly hashes: ReadonlyMap<string, string>;
  /** `pass.strings` by language: `{ de: { key: value } }`. */
  readonly strings: { readonly [language: string]: { readonly [key: string]: string } };
}

const CACHE_SIZE = 64;
const STRINGS_SUFFIX = '.lproj/pass.strings';

/**
 * A per-service reader of {@link TemplateAssets}, cached by template id and
 * version (every change of a file bumps the version, so a change is seen at
 * once); `undefined` for a template that does not exist.
 */
export function createTemplateAssets(): (sql: SqlQueryable, templateId: number) => Promise<TemplateAssets | undefined> {
  const cache = new Map<string, TemplateAssets>();
  return async (sql, templateId) => {
    const version = (await sql.query<{ version: number }>('select version from passmint_templates where id = $1', [templateId]))[0]?.version;
    if (version === undefined) return undefined;
    const key = `${templateId}:${version}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const files = await sql.query<{ path: string; hash: string; bytes: Uint8Array | null }>(
      `select path, encode(sha256(bytes), 'hex') as hash, case when path like '%${STRINGS_SUFFIX}' then bytes end as bytes
         from passmint_template_files where template_id = $1`,
      [templateId],
    );
    const strings: Record<string, Record<string, string>> = {};
    for (const file of files) {
      if (file.bytes === null) continue;
      const parsed = parsePassStrings(file.bytes);
      // Unreadable strings were refused on upload; one that is anyway is left out, not fatal.
      if (parsed instanceof Map) strings[file.path.slice(0, -STRINGS_SUFFIX.length)] = Object.fromEntries(parsed);
    }
    const assets: TemplateAssets = { hashes: new Map(files.map((file) => [file.path, file.hash])), strings };
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, assets);
    return assets;
  };
}
