import fc from 'fast-check';
import { expect } from 'vitest';
import { createWalletHandler } from '../../src/wallet/handler.js';
import type { WalletStore } from '../../src/wallet/store.js';

// Devices poll (through the handler) while the service marks passes updated,
// in any interleaving fast-check's scheduler picks. Every store call waits for
// its turn and then runs whole (a lock keeps a store whose calls do real I/O,
// such as the SQL one, from overlapping them), and logs what it did: the log
// is the order the store saw. From it, the model says what each poll must return.
// Shared by the in-memory store's test and the SQL store's (test/server/).
// Each run registers under a pass type of its own, so stores that outlive a run (a database) start clean.
const TYPE = 'pass.com.example.member';
let run = 0;
const serials = ['S0', 'S1', 'S2', 'S3'];
// device → the serials it registered
const holdings: Record<string, readonly string[]> = { d0: ['S0', 'S1'], d1: ['S1', 'S2', 'S3'], d2: ['S3'] };
const devices = Object.keys(holdings);

type Entry =
  | { readonly kind: 'update'; readonly serial: string; readonly tag: string }
  | { readonly kind: 'poll'; readonly device: string; readonly since: string | undefined; readonly serials: readonly string[]; readonly lastUpdated: string };

function scheduledStore(store: WalletStore, s: fc.Scheduler, log: Entry[]): WalletStore {
  let lock: Promise<unknown> = Promise.resolve();
  const whole = <T>(call: () => Promise<T>): Promise<T> => {
    const result = lock.then(call);
    lock = result.catch(() => undefined);
    return result;
  };
  return {
    ...store,
    async markUpdated(passTypeIdentifier, serialNumber) {
      await s.schedule(Promise.resolve(), `update ${serialNumber}`);
      return whole(async () => {
        const tag = await store.markUpdated(passTypeIdentifier, serialNumber);
        log.push({ kind: 'update', serial: serialNumber, tag });
        return tag;
      });
    },
    async updatedSince(device, passTypeIdentifier, since) {
      await s.schedule(Promise.resolve(), `poll ${device}`);
      return whole(async () => {
        const answer = await store.updatedSince(device, passTypeIdentifier, since);
        log.push({ kind: 'poll', device, since, serials: answer.serialNumbers, lastUpdated: answer.lastUpdated });
        return answer;
      });
    },
  };
}

const plan = fc.record({
  updates: fc.array(fc.constantFrom(...serials), { maxLength: 12 }),
  polls: fc.record({ d0: fc.nat(5), d1: fc.nat(5), d2: fc.nat(5) }),
});

/**
 * The property: for any interleaving of updates and polls, every change is
 * seen exactly once by each polling device, and no tag goes backwards.
 * `openStore` gives the store of one run (a fresh one, or a shared one).
 */
export async function checkUpdateTags(openStore: () => Promise<WalletStore> | WalletStore, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.scheduler(), plan, async (s, { updates, polls }) => {
      const base = await openStore();
      const type = `${TYPE}.r${run++}`;
      for (const [device, held] of Object.entries(holdings)) {
        for (const serialNumber of held) {
          await base.register({ deviceLibraryIdentifier: device, passTypeIdentifier: type, serialNumber, pushToken: 'ab'.repeat(32) });
        }
      }
      const log: Entry[] = [];
      const store = scheduledStore(base, s, log);
      const handler = createWalletHandler({ store, findPass: () => undefined });
      const statuses: number[] = [];
      const tagsSeen = new Map<string, bigint[]>();

      const poll = async (device: string, since: string | undefined): Promise<string | undefined> => {
        const query = since === undefined ? '' : `?passesUpdatedSince=${since}`;
        const response = await handler(new Request(`https://x/v1/devices/${device}/registrations/${type}${query}`));
        statuses.push(response.status);
        if (response.status === 204) return since;
        const body = (await response.json()) as { lastUpdated: string };
        tagsSeen.set(device, [...(tagsSeen.get(device) ?? []), BigInt(body.lastUpdated)]);
        return body.lastUpdated;
      };
      const tags = new Map<string, string | undefined>();
      const device = async (name: string, count: number): Promise<void> => {
        for (let index = 0; index < count; index++) tags.set(name, await poll(name, tags.get(name)));
      };
      const service = async (): Promise<void> => {
        for (const serial of updates) await store.markUpdated(type, serial);
      };
      const running = Promise.all([service(), ...devices.map((name) => device(name, polls[name as keyof typeof polls]))]);
      await s.waitFor(running);
      // A last poll by each device after everything, in a known order.
      for (const name of devices) await s.waitFor(device(name, 1));

      expect(statuses.every((status) => status === 200 || status === 204)).toBe(true);
      // No tag goes backwards: each device's successive tags strictly increase.
      for (const seen of tagsSeen.values()) for (let index = 1; index < seen.length; index++) expect(seen[index]! > seen[index - 1]!).toBe(true);
      // Replay the log: a poll returns exactly the device's serials updated since its previous poll
      // (all of them on its first poll), so each change is seen once, by the first poll after it.
      const dirty = new Map(devices.map((name) => [name, new Set<string>(holdings[name])]));
      const seenChanges = new Map(devices.map((name) => [name, 0]));
      for (const entry of log) {
        if (entry.kind === 'update') {
          for (const name of devices) if (holdings[name]!.includes(entry.serial)) dirty.get(name)!.add(entry.serial);
        } else {
          expect([...entry.serials].sort()).toEqual([...dirty.get(entry.device)!].sort());
          seenChanges.set(entry.device, seenChanges.get(entry.device)! + entry.serials.length);
          dirty.get(entry.device)!.clear();
        }
      }
      // Nothing left unseen after the final polls.
      for (const name of devices) expect(dirty.get(name)!.size).toBe(0);
    }),
    { numRuns },
  );
}
