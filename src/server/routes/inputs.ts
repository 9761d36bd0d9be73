// Request bodies checked before anything is stored: a template, a pass's values.
import { MAX_DEPTH } from '../../template/json.js';
import { validateTemplate } from '../../template/validate.js';
import type { JsonObject, PassTemplate } from '../../types.js';
import { MAX_IDENTIFIER_LENGTH } from '../../wallet/identifiers.js';
import { isObject, nestedDeeperThan } from '../http/body.js';
import { ServiceProblem } from '../../http/problem.js';

/** A body nested deeper than anything it may hold: a 422 before it is checked, stored or serialized. */
function tooDeep(code: 'invalid-template' | 'invalid-values'): ServiceProblem {
  const message = `nesting deeper than ${MAX_DEPTH} levels`;
  const issueCode = code === 'invalid-values' ? 'invalid-value' : 'invalid-template';
  return new ServiceProblem(422, code, `The body has ${message}.`, { issues: [{ severity: 'error', code: issueCode, message, path: '' }] });
}

/**
 * A request body as a template with the given id; 422 `invalid-template`
 * with `validateTemplate`'s issues (and a pass type a key column can hold).
 *
 * @example
 * ```ts
 * const template = checkedTemplate(await readJson(request, context.maxBodyBytes), 7);
 * ```
 */
export function checkedTemplate(body: unknown, id: number): PassTemplate {
  if (!isObject(body)) throw new ServiceProblem(422, 'invalid-template', 'A template is a JSON object.');
  if (nestedDeeperThan(body, MAX_DEPTH)) throw tooDeep('invalid-template');
  // `warnings` is a member of the answer only (templateAnswer): a template read, changed and sent back does not store it.
  const { warnings: _answerOnly, ...members } = body;
  const template = { ...members, id };
  const report = validateTemplate(template);
  if (!report.ok) throw new ServiceProblem(422, 'invalid-template', 'The template has errors.', { issues: report.issues });
  // The pass type becomes a key column: PostgreSQL text holds no NUL, and no identifier needs a control character.
  // Nor a lone surrogate, which has no UTF-8: stored, it would become U+FFFD.
  if (/[\u0000-\u001f\u007f]|\p{Cs}/u.test(String(body['passType']))) {
    throw new ServiceProblem(422, 'invalid-template', 'The template has errors.', {
      issues: [
        { severity: 'error', code: 'invalid-template', message: '`passType` must not contain control characters or lone surrogates', path: '/passType' },
      ],
    });
  }
  // A longer one would not fit a btree key beside its serial (every pass made from it a 500), nor Wallet's path limit.
  if (String(body['passType']).length > MAX_IDENTIFIER_LENGTH) {
    throw new ServiceProblem(422, 'invalid-template', 'The template has errors.', {
      issues: [{ severity: 'error', code: 'invalid-template', message: `\`passType\` must be at most ${MAX_IDENTIFIER_LENGTH} characters`, path: '/passType' }],
    });
  }
  return template as unknown as PassTemplate;
}

/**
 * A request body as a pass's values (placeholder name → value); 422 `invalid-values`.
 *
 * @example
 * ```ts
 * const values = valuesOf(await readJson(request, context.maxBodyBytes));
 * ```
 */
export function valuesOf(body: unknown): JsonObject {
  if (!isObject(body)) throw new ServiceProblem(422, 'invalid-values', 'Values are a JSON object: placeholder name → value.');
  // A value may nest MAX_DEPTH levels (the renderer's limit); the object holding the values is one more.
  if (nestedDeeperThan(body, MAX_DEPTH)) throw tooDeep('invalid-values');
  return body as JsonObject;
}
