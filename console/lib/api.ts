import { signal } from '@preact/signals';

/** An RFC 9457 problem the service answered, or a network failure (`status` 0). */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly issues: readonly { message: string; path?: string }[];
  constructor(status: number, code: string, message: string, issues: readonly { message: string; path?: string }[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
  /** The route is not on this service (an older version): the page says so instead of failing. */
  get missing(): boolean {
    return (this.status === 404 && (this.code === 'not-found' || this.code === 'route-not-found')) || this.status === 405 || this.status === 501;
  }
}

/** The session's CSRF token, held in memory only (never the key). */
export const csrfToken = signal<string | undefined>(undefined);
/** Set when the session ended under the page (401): the app shows the sign-in page. */
export const sessionLost = signal(false);

export interface CallOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly json?: unknown;
  readonly body?: BodyInit;
  readonly contentType?: string;
  readonly accept?: string;
}

async function problemOf(response: Response): Promise<ApiError> {
  let body: { code?: unknown; detail?: unknown; title?: unknown; issues?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Not JSON: the status says enough.
  }
  const code = typeof body.code === 'string' ? body.code : response.status === 404 ? 'not-found' : `http-${response.status}`;
  const message =
    typeof body.detail === 'string'
      ? body.detail
      : typeof body.title === 'string'
        ? body.title
        : `The service answered ${response.status} ${response.statusText}.`;
  const issues = Array.isArray(body.issues) ? (body.issues as { message: string; path?: string }[]).filter((issue) => typeof issue?.message === 'string') : [];
  return new ApiError(response.status, code, message, issues);
}

/**
 * One call to the service with the session cookie: never an Authorization
 * header; every call that changes something carries the CSRF token.
 */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  if (method !== 'GET' && csrfToken.peek() !== undefined) headers['x-csrf-token'] = csrfToken.peek() as string;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, credentials: 'same-origin', ...(body === undefined ? {} : { body }) });
  } catch (error) {
    throw new ApiError(0, 'network', `The service could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    const problem = await problemOf(response);
    if (response.status === 401 && !path.startsWith('/console/session')) sessionLost.value = true;
    throw problem;
  }
  return response;
}

/** A call whose answer is JSON (`undefined` for 204). */
export async function getJson<T>(path: string, options: CallOptions = {}): Promise<T> {
  const response = await call(path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A page of a list, as the API gives every list. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly next: string | null;
}

/** Query text from pairs, leaving out empty values. */
export function query(params: Readonly<Record<string, string | number | undefined>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.append(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** A pass's path segment: `/v1/passes/{type}/{serial}`. */
export const passPath = (type: string, serial: string): string => `/v1/passes/${encodeURIComponent(type)}/${encodeURIComponent(serial)}`;
