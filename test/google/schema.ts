// Checks a Google Wallet class or object against Google's published API
// description, as checked in at test/fixtures/google/walletobjects-schema.json:
// property names, JSON types, enum values and required properties.
//
// Source: the npm package @googleapis/walletobjects (build/v1.d.ts, the
// TypeScript typings Google generates from the Wallet Objects API's discovery
// document), extracted by scripts/google-schema.js; its `source` member names
// the package version and the date. Required: what the typings' descriptions
// call required ("Required." — the same words as Google's REST reference at
// developers.google.com/wallet, e.g. FlightClass.origin, EventVenue.address
// "This is required.", FlightHeader.carrier "a required property of
// flightHeader"). Enums: from the discovery document (the typings type them
// as plain strings). Beyond the typings, from the same descriptions:
// - FlightCarrier: "Exactly one of [carrierIcaoCode] or `carrierIataCode`
//   needs to be provided" for `carrier`;
// - ids: "The unique identifier should only include alphanumeric characters,
//   '.', '_', or '-'", in the format "issuer ID.identifier";
// - hexBackgroundColor: "The format is #rrggbb where rrggbb is a hex RGB triplet";
// - a required text is not empty (Google refuses an empty required string).
import { readFileSync } from 'node:fs';

interface PropertyType {
  readonly type?: 'string' | 'boolean' | 'number' | 'object' | 'array';
  readonly $ref?: string;
  readonly items?: PropertyType;
  readonly enum?: readonly string[];
}
interface SchemaEntry {
  readonly properties: Readonly<Record<string, PropertyType>>;
  readonly required: readonly string[];
}
export interface WalletObjectsSchema {
  readonly source: { readonly package: string; readonly version: string; readonly extracted: string };
  readonly roots: readonly string[];
  readonly schemas: Readonly<Record<string, SchemaEntry>>;
}

export const walletObjectsSchema: WalletObjectsSchema = JSON.parse(
  readFileSync(new URL('../fixtures/google/walletobjects-schema.json', import.meta.url), 'utf8'),
);

const ID = /^[0-9]+\.[A-Za-z0-9._-]+$/;

/** Every way `value` breaks Google's description of `schemaName` (e.g. `'LoyaltyObject'`), each with its JSON path. */
export function schemaProblems(value: unknown, schemaName: string, path = schemaName): string[] {
  const problems: string[] = [];
  checkObject(value, schemaName, path, problems);
  return problems;
}

function checkObject(value: unknown, schemaName: string, path: string, problems: string[]): void {
  const schema = walletObjectsSchema.schemas[schemaName];
  if (schema === undefined) throw new Error(`no schema ${schemaName} in the fixture`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${path}: not an object (${schemaName})`);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [key, member] of Object.entries(record)) {
    const property = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    if (property === undefined) {
      problems.push(`${path}.${key}: unknown field of ${schemaName}`);
      continue;
    }
    checkValue(member, property, `${path}.${key}`, problems);
  }
  for (const key of schema.required) {
    const member = record[key];
    if (member === undefined || member === null || member === '') problems.push(`${path}.${key}: required by ${schemaName}, missing`);
  }
  if (schemaName === 'FlightCarrier' && (record['carrierIataCode'] === undefined) === (record['carrierIcaoCode'] === undefined)) {
    problems.push(`${path}: exactly one of carrierIataCode and carrierIcaoCode is needed`);
  }
  if (walletObjectsSchema.roots.includes(schemaName)) {
    for (const key of ['id', 'classId']) {
      if (typeof record[key] === 'string' && !ID.test(record[key] as string))
        problems.push(`${path}.${key}: not an id of the form <issuer id>.<letters, digits, . _ ->`);
    }
  }
  if (typeof record['hexBackgroundColor'] === 'string' && !/^#[0-9a-fA-F]{6}$/.test(record['hexBackgroundColor']))
    problems.push(`${path}.hexBackgroundColor: not #rrggbb`);
}

function checkValue(value: unknown, property: PropertyType, path: string, problems: string[]): void {
  if (property.$ref !== undefined) {
    checkObject(value, property.$ref, path, problems);
    return;
  }
  switch (property.type) {
    case 'array':
      if (!Array.isArray(value)) problems.push(`${path}: not an array`);
      else for (const [index, item] of value.entries()) checkValue(item, property.items ?? {}, `${path}[${index}]`, problems);
      return;
    case 'string':
      if (typeof value !== 'string') problems.push(`${path}: not a string (${typeof value})`);
      else if (property.enum !== undefined && !property.enum.includes(value))
        problems.push(`${path}: ${JSON.stringify(value)} is not one of ${property.enum.join(', ')}`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) problems.push(`${path}: not a number`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') problems.push(`${path}: not a boolean`);
      return;
    case 'object':
      if (value === null || typeof value !== 'object' || Array.isArray(value)) problems.push(`${path}: not an object`);
      return;
    default:
  }
}

/** The resource names of a mapped pass's class and object (`LoyaltyClass`, `LoyaltyObject` …). */
export function resourceNames(type: string): { readonly class: string; readonly object: string } {
  const name = type[0]!.toUpperCase() + type.slice(1);
  return { class: `${name}Class`, object: `${name}Object` };
}
