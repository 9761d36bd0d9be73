export { ApiError } from './api-error.js';
export { bearerAuth, type Authenticate } from './bearer-auth.js';
export {
  createPassClient,
  DEFAULT_CLIENT_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  type FetchLike,
  type PassClient,
  type PassClientOptions,
  type PassRequestOptions,
} from './client.js';
export { createPassHandler, type Found, type PassHandler, type PassHandlerOptions } from './handler.js';
export type { Problem, ProblemCode } from './problem.js';
