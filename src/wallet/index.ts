// passmint/wallet: Apple's PassKit web service as a Fetch-API handler. Named re-exports only.
export {
  createWalletHandler,
  type WalletEvent,
  type WalletHandler,
  type WalletHandlerOptions,
  type WalletPass,
} from './handler.js';
export type { PersonalizationInfo, WalletPersonalization } from './personalization.js';
export { createMemoryWalletStore, type MemoryWalletStoreOptions } from './memory-store.js';
export type { UpdatedSerials, WalletRegistration, WalletStore } from './store.js';
export type { WalletProblem, WalletProblemCode } from '../http/problem.js';
export { formatHttpDate, parseHttpDate } from './http-date.js';
export { isPushToken } from './identifiers.js';
