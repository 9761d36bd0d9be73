// Checks answers a test received against the service's OpenAPI document:
// the path and method are documented (or the answer is a 404 or 405 problem), the status is
// documented (a problem may fall under `default`), and a JSON body validates
// against the documented schema (ajv, JSON Schema 2020-12).
import AjvModule from 'ajv/dist/2020.js';
import type { Service } from './harness.js';

// A CommonJS module: its class is the default export's `default` under Node's ESM interop.
const Ajv2020 = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as typeof import('ajv/dist/2020.js').Ajv2020;

type Responses = Record<string, { content?: Record<string, unknown> }>;
type Doc = { paths: Record<string, Record<string, { responses: Responses }>> };

/** One answer as a test received it. */
export interface Answer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly body: unknown;
}

/** What is wrong with an answer, or `undefined` when it is as documented. */
export type AnswerCheck = (answer: Answer) => string | undefined;

const ID = 'https://passmint.dev/openapi.json';

/** Reads `GET /v1/openapi.json` from a running service and returns the check of its answers. */
export async function openApiChecker(serviceUrl: string): Promise<AnswerCheck> {
  const doc = (await (await fetch(`${serviceUrl}/v1/openapi.json`)).json()) as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/);
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addSchema({ ...doc, $id: ID });

  const templateOf = (path: string): string | undefined => {
    const segments = path.split('?')[0]!.split('/');
    return Object.keys(doc.paths).find((candidate) => {
      const parts = candidate.split('/');
      if (parts[parts.length - 1] === '{path}')
        return segments.length >= parts.length && parts.slice(0, -1).every((part, index) => part.startsWith('{') || part === segments[index]);
      return parts.length === segments.length && parts.every((part, index) => part.startsWith('{') || part === segments[index]);
    });
  };
  const pointer = (...parts: string[]): string => `${ID}#/${parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

  return ({ method, path, status, contentType, body }) => {
    const where = `${method} ${path} → ${status}`;
    const template = templateOf(path);
    const type = (contentType ?? '').split(';')[0]!.trim();
    // A path that is no route: a 404 problem like any other.
    if (template === undefined) return status === 404 && type === 'application/problem+json' ? undefined : `${where}: the path is not documented`;
    const operation = doc.paths[template]![method.toLowerCase()];
    if (operation === undefined)
      return status === 405 && type === 'application/problem+json' ? undefined : `${where}: ${method} is not documented on ${template}`;
    const index = String(status) in operation.responses ? String(status) : type === 'application/problem+json' ? 'default' : undefined;
    if (index === undefined) return `${where}: the status is not documented on ${method} ${template}`;
    if (body === undefined || body === '' || !type.endsWith('json')) return undefined;
    if (operation.responses[index]!.content?.[type] === undefined) return `${where}: ${type} is not documented`;
    const validate = ajv.getSchema(pointer('paths', template, method.toLowerCase(), 'responses', index, 'content', type, 'schema'));
    if (validate === undefined) return `${where}: no schema`;
    return validate(body) ? undefined : `${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`;
  };
}

/** The service with each answer of `service.call` added to `answers`, to be checked at the end. */
export function recordAnswers(service: Service, answers: Answer[]): Service {
  const call = service.call.bind(service);
  return {
    ...service,
    async call(method, path, body, headers) {
      const answer = await call(method, path, body, headers);
      answers.push({ method, path, status: answer.status, contentType: answer.headers.get('content-type'), body: answer.body });
      return answer;
    },
  };
}
