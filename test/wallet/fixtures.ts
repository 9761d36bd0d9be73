import { createMemoryWalletStore } from '../../src/wallet/memory-store.js';
import { createWalletHandler, type WalletEvent, type WalletHandlerOptions, type WalletPass } from '../../src/wallet/handler.js';
import type { WalletStore } from '../../src/wallet/store.js';

export const passTypeIdentifier = 'pass.com.example.member';
export const serialNumber = 'E5982H-I2';
export const authenticationToken = 'vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc';
export const deviceLibraryIdentifier = '6b7c2f1d0a9e4c3b8d7e6f5a4b3c2d1e';
export const pushToken = '4a5f0e1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7';
export const lastModified = Date.UTC(2026, 10, 23, 9, 30, 15, 250);
export const pkpassBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);

/** A wallet handler over a memory store with one pass (plus `extra`), recording events and logs. */
export function walletFixture(overrides: Partial<WalletHandlerOptions> = {}, store: WalletStore = createMemoryWalletStore()) {
  const events: WalletEvent[] = [];
  const logs: string[][] = [];
  const passes = new Map<string, WalletPass>([[`${passTypeIdentifier}/${serialNumber}`, { authenticationToken, lastModified, pkpass: () => pkpassBytes }]]);
  const handler = createWalletHandler({
    store,
    findPass: (type, serial) => passes.get(`${type}/${serial}`),
    onEvent: (event) => {
      events.push(event);
    },
    onLog: (messages) => {
      logs.push([...messages]);
    },
    ...overrides,
  });
  return { handler, store, events, logs, passes };
}

export const base = 'https://passes.example.com';
export const registrationPath = `/v1/devices/${deviceLibraryIdentifier}/registrations/${passTypeIdentifier}/${serialNumber}`;
export const serialsPath = `/v1/devices/${deviceLibraryIdentifier}/registrations/${passTypeIdentifier}`;
export const passPath = `/v1/passes/${passTypeIdentifier}/${serialNumber}`;
export const applePass = (token = authenticationToken) => ({ authorization: `ApplePass ${token}` });

export function request(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}): Request {
  return new Request(base + path, { method, headers: init.headers ?? {}, ...(init.body === undefined ? {} : { body: init.body }) });
}

export function register(path = registrationPath, token = pushToken, auth = authenticationToken): Request {
  return request('POST', path, { headers: { ...applePass(auth), 'content-type': 'application/json' }, body: JSON.stringify({ pushToken: token }) });
}
