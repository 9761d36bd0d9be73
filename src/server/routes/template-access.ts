// Keys limited to templates: what such a key may reach on each route. A route's access is read
// from its path unless it declares it, and the safe default — a route about no template — is
// refused, so a route added later is closed to a limited key until it says otherwise.
import { ServiceProblem } from '../../http/problem.js';
import type { Caller } from '../db/keys.js';
import type { SqlQueryable } from '../db/sql.js';
import { passTypesOfTemplates, templateOfJob, templateOfPass } from '../db/template-access.js';

/**
 * How a route treats a key limited to templates:
 * - `'template'`: its path's `{id}` is a template (`/v1/templates/{id}/…`): another template is a 404;
 * - `'pass'`: its path names a pass (`/v1/passes/{type}/{serial}/…`): a pass of another template is a 404;
 * - `'job'`: its path names a job (`/v1/jobs/{id}/…`): a job of another template (or of none) is a 404;
 * - `'filtered'`: a list whose handler shows only the key's templates (it reads `caller.templateIds`);
 * - `'refused'`: about no one template (keys, webhooks, events, certificates, the audit log,
 *   creating a template): 403 `insufficient-scope`.
 *
 * @example
 * ```ts
 * const access: TemplateAccess = templateAccessOf('/v1/templates/{id}/publish'); // 'template'
 * ```
 */
export type TemplateAccess = 'template' | 'pass' | 'job' | 'filtered' | 'refused';

/**
 * A route's access for a limited key, read from its path.
 *
 * @example
 * ```ts
 * templateAccessOf('/v1/passes/{type}/{serial}/void'); // 'pass'
 * templateAccessOf('/v1/webhooks'); // 'refused'
 * ```
 */
export function templateAccessOf(path: string): TemplateAccess {
  if (/^\/v1\/templates\/\{id\}(?:\/|$)/.test(path)) return 'template';
  if (/^\/v1\/passes\/\{type\}\/\{serial\}(?:\/|$)/.test(path)) return 'pass';
  if (/^\/v1\/jobs\/\{id\}(?:\/|$)/.test(path)) return 'job';
  return 'refused';
}

/**
 * Whether a caller may see a template: any caller not limited, or one
 * whose `templateIds` hold it.
 *
 * @example
 * ```ts
 * mayUseTemplate(caller, 7);
 * ```
 */
export function mayUseTemplate(caller: Caller | undefined, templateId: number | string): boolean {
  const ids = caller?.templateIds;
  return ids === null || ids === undefined || ids.includes(String(templateId));
}

/**
 * Refuses a limited key what its templates do not cover, before the route's
 * handler runs: a 404 for a template, pass or job of another template (the
 * same answer as one that does not exist), a 403 for a route about no one
 * template. Resolves when the call may go on (also when what it names does
 * not exist: the handler answers that 404).
 */
export async function enforceTemplateAccess(
  access: TemplateAccess,
  params: Readonly<Record<string, string>>,
  caller: Caller,
  sql: SqlQueryable,
): Promise<void> {
  switch (access) {
    case 'filtered':
      return;
    case 'template': {
      const id = params['id'] ?? '';
      if (!mayUseTemplate(caller, id)) throw new ServiceProblem(404, 'template-not-found', `No template ${JSON.stringify(id)} exists.`);
      return;
    }
    case 'pass': {
      const type = params['type'] ?? '';
      const serial = params['serial'] ?? '';
      const template = await templateOfPass(sql, type, serial);
      if (template !== undefined && !mayUseTemplate(caller, template)) {
        throw new ServiceProblem(404, 'pass-not-found', `No pass ${JSON.stringify(serial)} of type ${JSON.stringify(type)} exists.`);
      }
      return;
    }
    case 'job': {
      const id = params['id'] ?? '';
      const template = await templateOfJob(sql, id);
      if (template !== undefined && (template === null || !mayUseTemplate(caller, template))) {
        throw new ServiceProblem(404, 'job-not-found', `No job ${JSON.stringify(id)} exists.`);
      }
      return;
    }
    case 'refused':
      throw new ServiceProblem(
        403,
        'insufficient-scope',
        `This API key is limited to templates ${caller.templateIds?.join(', ')}: this call is about more than those templates.`,
      );
  }
}

/**
 * Refuses a key limited to templates a change of a template's `passType` to
 * one none of its templates has: 403 `insufficient-scope`. A pass type is a
 * program's signing identity (its certificate, team and APNs topic), so
 * another one — a pass type of templates the key may not touch, or of a
 * certificate uploaded for them — would sign this key's passes as that
 * program's. The pass type kept, or one of its own templates', goes on; an
 * unlimited caller's always. The refusal names only the key's own pass
 * types: it does not tell whether another program uses the one asked for.
 *
 * @example
 * ```ts
 * await checkPassTypeChange(caller, current.template.passType, template.passType, db);
 * ```
 */
export async function checkPassTypeChange(caller: Caller | undefined, current: string, next: string, sql: SqlQueryable): Promise<void> {
  const ids = caller?.templateIds ?? null;
  if (ids === null || next === current) return;
  const held = await passTypesOfTemplates(sql, ids);
  if (held.includes(next)) return;
  throw new ServiceProblem(
    403,
    'insufficient-scope',
    `This API key is limited to templates ${ids.join(', ')}: it may give a template only a pass type one of them has (${held.map((type) => JSON.stringify(type)).join(', ')}), not ${JSON.stringify(next)} — another pass type signs with another program's certificate. Nothing was changed; an API key not limited to templates can make this change.`,
  );
}

/**
 * The `templateId` a list of passes is narrowed to for a limited caller:
 * the one asked for when the key covers it (else a 404, as for a template
 * that does not exist); none asked for, the key's only template; a key of
 * several templates must name one (400 `invalid-query`). An unlimited
 * caller gets what it asked for.
 *
 * @example
 * ```ts
 * passTemplateFor(caller, undefined); // 7 for a key limited to template 7
 * ```
 */
export function passTemplateFor(caller: Caller | undefined, templateId: number | undefined): number | undefined {
  const ids = caller?.templateIds ?? null;
  if (ids === null) return templateId;
  if (templateId !== undefined) {
    if (!ids.includes(String(templateId))) throw new ServiceProblem(404, 'template-not-found', `No template ${templateId} exists.`);
    return templateId;
  }
  if (ids.length === 1) return Number(ids[0]);
  throw new ServiceProblem(400, 'invalid-query', `This API key is limited to templates ${ids.join(', ')}: give \`templateId\`, one of them.`);
}

/**
 * A page of a limited caller's templates, in id order from the page's
 * cursor, each read by `find` (its primary key): at most the key's list of
 * ids is looked at, never the whole table.
 *
 * @example
 * ```ts
 * const items = await limitedTemplates(caller.templateIds, query, (id) => store.findTemplate(db, id));
 * ```
 */
export async function limitedTemplates<TRecord>(
  templateIds: readonly string[],
  query: { readonly limit: number; readonly direction: 'after' | 'before'; readonly cursor: number | undefined },
  find: (id: number) => Promise<TRecord | undefined>,
): Promise<TRecord[]> {
  const after = query.direction === 'after';
  const ids = templateIds
    .map(Number)
    .filter((id) => query.cursor === undefined || (after ? id > query.cursor : id < query.cursor))
    .sort((a, b) => (after ? a - b : b - a));
  const items: TRecord[] = [];
  for (const id of ids) {
    if (items.length === query.limit) break;
    const record = await find(id);
    if (record !== undefined) items.push(record);
  }
  return items;
}
