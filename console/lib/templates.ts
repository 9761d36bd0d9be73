import { getJson, type Page } from './api.js';

/** A template as the service stores it (the playground's template format, with its id). */
export interface Template {
  readonly id: number;
  readonly name: string;
  readonly passType: string;
  readonly formatVersion: number;
  readonly placeholder?: readonly string[];
  readonly [member: string]: unknown;
}

/** Every template (a console shows tens, not thousands: read until the last page, at most 20 pages). */
export async function allTemplates(): Promise<Template[]> {
  const all: Template[] = [];
  let after: string | null = null;
  for (let round = 0; round < 20; round++) {
    const page: Page<Template> = await getJson<Page<Template>>(`/v1/templates?limit=100${after === null ? '' : `&after=${after}`}`);
    all.push(...page.items);
    after = page.next;
    if (after === null) break;
  }
  return all;
}
