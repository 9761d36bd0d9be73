import type { UpdatedSerials, WalletRegistration, WalletStore } from '../../wallet/store.js';
import { createEvent } from '../../webhooks/event.js';
import { addEvents } from './outbox.js';
import type { SqlDatabase, SqlQueryable } from './sql.js';

// The classes of the registration caps' advisory locks (any constants of their own).
const DEVICE_LOCK_CLASS = 0x706d7201;
const PASS_LOCK_CLASS = 0x706d7202;

// Tags are decimal integers below 2^53 (kept exact in a double); anything else was not made here.
const tagPattern = /^(?:0|[1-9]\d{0,15})$/;

interface RegistrationRow {
  device_library_identifier: string;
  pass_type_identifier: string;
  serial_number: string;
  push_token: string;
}

const toRegistration = (row: RegistrationRow): WalletRegistration => ({
  deviceLibraryIdentifier: row.device_library_identifier,
  passTypeIdentifier: row.pass_type_identifier,
  serialNumber: row.serial_number,
  pushToken: row.push_token,
});

/**
 * Takes the next update tag and gives it to a pass, inside the caller's
 * transaction. The tag comes from a single-row counter, so its row lock
 * makes tags visible in commit order (a device never skips a smaller tag
 * that commits later). A tag is at least the clock in microseconds, so tags
 * keep moving forward even over a database that was reset.
 */
export async function markPassUpdated(tx: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<string> {
  // One statement: the counter's row is held to the commit, and a round trip less while holding it is a round trip
  // less that every other update waits.
  const rows = await tx.query<{ tag: number }>(
    `with counter as (
       update passmint_counters
          set value = greatest(value + 1, (extract(epoch from clock_timestamp()) * 1000000)::bigint)
        where name = 'tag'
       returning value)
     insert into passmint_wallet_tags (pass_type_identifier, serial_number, tag)
     select $1, $2, counter.value from counter
     on conflict (pass_type_identifier, serial_number) do update set tag = excluded.tag
     returning tag`,
    [passTypeIdentifier, serialNumber],
  );
  return String(rows[0]!.tag);
}

/**
 * Removes every registration with a device token (APNs said it is gone);
 * resolves to the registrations removed.
 *
 * @example
 * ```ts
 * const removed = await removeRegistrationsOfToken(tx, pushToken);
 * ```
 */
export async function removeRegistrationsOfToken(sql: SqlQueryable, pushToken: string): Promise<WalletRegistration[]> {
  const rows = await sql.query<RegistrationRow>(
    `delete from passmint_wallet_registrations where push_token = $1
         returning device_library_identifier, pass_type_identifier, serial_number, push_token`,
    [pushToken],
  );
  return rows.map(toRegistration);
}

/**
 * Options of {@link createSqlWalletStore}.
 *
 * @example
 * ```ts
 * const options: SqlWalletStoreOptions = { events: true };
 * ```
 */
export interface SqlWalletStoreOptions {
  /**
   * Add `registration.created` (a first registration of a pass on a device)
   * and `registration.deleted` to the outbox in the same transaction as the
   * change, so a crash cannot keep one without the other. Then give the
   * wallet handler no `onEvent`. Default `false`.
   */
  readonly events?: boolean | undefined;
  /** Called after a commit that added events (to wake a delivery worker). */
  readonly onEvents?: (() => void) | undefined;
  /**
   * Devices one pass may be registered on (0 or absent: no cap). A device
   * past the cap is answered as already registered (`'existing'`: Apple's
   * protocol has no other refusal than 401, which says the token is wrong);
   * nothing is stored, no event, and it gets no pushes.
   */
  readonly maxRegistrationsPerPass?: number | undefined;
  /** Passes one device may register (0 or absent: no cap); past it, as above. */
  readonly maxRegistrationsPerDevice?: number | undefined;
}

/**
 * A {@link WalletStore} on the service's SQL database (PGlite or
 * PostgreSQL): registrations and update tags shared by every process.
 *
 * @example
 * ```ts
 * const handler = createWalletHandler({ store: createSqlWalletStore(db, { events: true }), findPass });
 * ```
 */
export function createSqlWalletStore(db: SqlDatabase, options: SqlWalletStoreOptions = {}): WalletStore {
  const events = options.events === true;
  const committed = (added: boolean): void => {
    if (added) options.onEvents?.();
  };
  const eventOf = (type: 'registration.created' | 'registration.deleted', device: string, passTypeIdentifier: string, serialNumber: string) =>
    // deviceLibraryIdentifier rides along, as the wallet handler's own events carry it; `wallet` tells Apple's from Google's.
    createEvent(type, { serialNumber, passTypeIdentifier, deviceLibraryIdentifier: device, wallet: 'apple' });
  const perPass = options.maxRegistrationsPerPass ?? 0;
  const perDevice = options.maxRegistrationsPerDevice ?? 0;
  const capped = perPass > 0 || perDevice > 0;
  // Counted after taking two advisory locks (the device's, then the pass's; two-number keys of their own
  // classes, apart from every one-number lock), in a statement before the count, whose snapshot then sees
  // what the previous holder committed: concurrent registrations cannot both take the last place.
  const overCap = async (tx: SqlQueryable, device: string, passTypeIdentifier: string, serialNumber: string): Promise<boolean> => {
    await tx.query(`select pg_advisory_xact_lock(${DEVICE_LOCK_CLASS}, hashtext($1))`, [device]);
    await tx.query(`select pg_advisory_xact_lock(${PASS_LOCK_CLASS}, hashtext($1 || '/' || $2))`, [passTypeIdentifier, serialNumber]);
    // Each count reads at most cap rows.
    const rows = await tx.query<{ device: number; pass: number }>(
      `select (select count(*)::int from (select 1 from passmint_wallet_registrations where device_library_identifier = $1 limit $4) d) as device,
              (select count(*)::int from (select 1 from passmint_wallet_registrations
                 where pass_type_identifier = $2 and serial_number = $3 limit $5) p) as pass`,
      [device, passTypeIdentifier, serialNumber, perDevice, perPass],
    );
    const counts = rows[0]!;
    return (perDevice > 0 && counts.device >= perDevice) || (perPass > 0 && counts.pass >= perPass);
  };
  return {
    register: (registration) =>
      db
        .transaction(async (tx) => {
          const { deviceLibraryIdentifier: device, passTypeIdentifier, serialNumber, pushToken } = registration;
          // The pass's row first, shared: a change of the pass (which takes it for update before it queues
          // pushes) either waits for this registration and pushes to it, or ran before and is older than
          // its created_at (the clock after this lock, not the transaction's start). So a device
          // registered before a change always gets that change's push.
          await tx.query('select 1 from passmint_passes where pass_type_identifier = $1 and serial_number = $2 for share', [passTypeIdentifier, serialNumber]);
          // A repeat only changes the push token: no event, no cap to check.
          const repeated = await tx.query(
            `update passmint_wallet_registrations set push_token = $4
            where device_library_identifier = $1 and pass_type_identifier = $2 and serial_number = $3 returning 1`,
            [device, passTypeIdentifier, serialNumber, pushToken],
          );
          if (repeated.length > 0) return false;
          if (capped && (await overCap(tx, device, passTypeIdentifier, serialNumber))) return false;
          const rows = await tx.query<{ created: boolean }>(
            `insert into passmint_wallet_registrations (device_library_identifier, pass_type_identifier, serial_number, push_token, created_at)
           values ($1, $2, $3, $4, clock_timestamp())
           on conflict (device_library_identifier, pass_type_identifier, serial_number) do update set push_token = excluded.push_token
           returning (xmax = 0) as created`,
            [device, passTypeIdentifier, serialNumber, pushToken],
          );
          const created = rows[0]?.created === true;
          if (created && events) {
            await addEvents(tx, [
              eventOf('registration.created', registration.deviceLibraryIdentifier, registration.passTypeIdentifier, registration.serialNumber),
            ]);
          }
          return created;
        })
        .then((created) => {
          committed(created && events);
          return created ? 'created' : 'existing';
        }),

    unregister: (deviceLibraryIdentifier, passTypeIdentifier, serialNumber) =>
      db
        .transaction(async (tx) => {
          const rows = await tx.query(
            `delete from passmint_wallet_registrations
            where device_library_identifier = $1 and pass_type_identifier = $2 and serial_number = $3
           returning 1`,
            [deviceLibraryIdentifier, passTypeIdentifier, serialNumber],
          );
          if (rows.length > 0 && events) await addEvents(tx, [eventOf('registration.deleted', deviceLibraryIdentifier, passTypeIdentifier, serialNumber)]);
          return rows.length > 0;
        })
        .then((removed) => {
          committed(removed && events);
          return removed;
        }),

    async updatedSince(deviceLibraryIdentifier, passTypeIdentifier, since): Promise<UpdatedSerials> {
      const after = since !== undefined && tagPattern.test(since) ? Number(since) : -1;
      const rows = await db.query<{ serial_number: string; tag: number }>(
        `select r.serial_number, coalesce(t.tag, 0) as tag
           from passmint_wallet_registrations r
           left join passmint_wallet_tags t
             on t.pass_type_identifier = r.pass_type_identifier and t.serial_number = r.serial_number
          where r.device_library_identifier = $1 and r.pass_type_identifier = $2 and coalesce(t.tag, 0) > $3
          order by r.serial_number`,
        [deviceLibraryIdentifier, passTypeIdentifier, after],
      );
      if (rows.length === 0) return { lastUpdated: since ?? '0', serialNumbers: [] };
      const greatest = rows.reduce((max, row) => (row.tag > max ? row.tag : max), 0);
      return { lastUpdated: String(greatest), serialNumbers: rows.map((row) => row.serial_number) };
    },

    markUpdated: (passTypeIdentifier, serialNumber) => db.transaction((tx) => markPassUpdated(tx, passTypeIdentifier, serialNumber)),

    async registrationsOf(passTypeIdentifier, serialNumber) {
      const rows = await db.query<RegistrationRow>(
        `select device_library_identifier, pass_type_identifier, serial_number, push_token
           from passmint_wallet_registrations where pass_type_identifier = $1 and serial_number = $2
          order by device_library_identifier`,
        [passTypeIdentifier, serialNumber],
      );
      return rows.map(toRegistration);
    },

    removePushToken: (pushToken) => removeRegistrationsOfToken(db, pushToken),
  };
}
