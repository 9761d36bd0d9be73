/** A pass's links; `share` where the service makes share pages. */
export interface PassLinks {
  readonly self: string;
  readonly passjson: string;
  readonly pkpass: string;
  readonly google?: string;
  readonly share?: string;
}

/** A pass as the list gives it. */
export interface PassSummary {
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
  readonly templateId: number;
  readonly version: number;
  readonly created: string;
  readonly updated: string;
  readonly state?: string;
  readonly templateVersion?: number | null;
  readonly links: PassLinks;
}

/** A pass with its values. */
export interface PassRecord extends PassSummary {
  readonly values: Readonly<Record<string, unknown>>;
}

/** A value as text in a field: strings as they are, anything else as JSON. */
export const valueText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
