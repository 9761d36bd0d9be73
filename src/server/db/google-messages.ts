// Apple notifies a field's change through its `changeMessage`; Google has no
// such thing, only messages added to an object. The service turns one into
// the other: each field whose value changed since the pass Google last got,
// and that has a changeMessage, becomes one TEXT_AND_NOTIFY message.
import type { Field, Pass, PassStructure } from '../../types.js';
import type { SqlQueryable } from './sql.js';

/** Google shows at most this many notifying messages per object in 24 hours; further ones fail. */
export const GOOGLE_NOTIFICATIONS_PER_DAY = 3;

/** One message owed: its Google text and the field it came from. */
export interface ChangeMessage {
  readonly fieldKey: string;
  readonly header: string;
  readonly body: string;
}

const STYLES = ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard'] as const;
const AREAS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'] as const;

function fieldsOf(pass: Pass): Map<string, Field> {
  const fields = new Map<string, Field>();
  for (const style of STYLES) {
    const structure: PassStructure | undefined = pass[style];
    if (structure === undefined) continue;
    for (const area of AREAS) for (const field of structure[area] ?? []) fields.set(field.key, field);
  }
  return fields;
}

/**
 * The messages a change from `before` (the pass Google has) to `after` owes:
 * one per field of `after` with a `changeMessage` whose value differs (a
 * field that is new has no before, and notifies nothing, as on iPhone).
 * `%@` becomes the new value; the header is the field's label, else the
 * pass's organization.
 *
 * @example
 * ```ts
 * changeMessages(before, after); // [{ fieldKey: 'gate', header: 'Gate', body: 'Gate changed to B12' }]
 * ```
 */
export function changeMessages(before: Pass, after: Pass): ChangeMessage[] {
  const old = fieldsOf(before);
  const messages: ChangeMessage[] = [];
  for (const [key, field] of fieldsOf(after)) {
    const previous = old.get(key);
    if (field.changeMessage === undefined || previous === undefined || previous.value === field.value) continue;
    messages.push({
      fieldKey: key,
      header: field.label ?? after.organizationName,
      body: field.changeMessage.split('%@').join(String(field.value)),
    });
  }
  return messages;
}

/** How many notifying messages the object was sent in the last 24 hours. */
export async function notificationsToday(sql: SqlQueryable, objectId: string): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `select count(*)::int as n from passmint_google_messages
      where object_id = $1 and status = 'sent' and sent_at > now() - interval '24 hours'`,
    [objectId],
  );
  return rows[0]?.n ?? 0;
}
