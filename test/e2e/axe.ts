import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. The passes are
 * drawn in the colors their authors chose (Apple's `.pass`, Google's `.google-card`):
 * their contrast is the pass's business, the page's own colors are checked everywhere else.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const everything = await axe.run(document, { resultTypes: ['violations'], rules: { 'color-contrast': { enabled: false } } });
    const contrast = await axe.run({ exclude: [['.pass'], ['.google-card']] }, { resultTypes: ['violations'], runOnly: ['color-contrast'] });
    return [...everything.violations, ...contrast.violations];
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 4)
          .join(', ')}`,
    );
}
