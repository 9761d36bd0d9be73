// Every relative link in README.md and docs/*.md leads somewhere: the file
// exists, and a `#fragment` names a heading (as GitHub makes its anchor) or an
// explicit `id` in the target page.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks (links and headings there are examples, not the page's own). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2 … */
// biome-ignore lint/suspicious/noExportsInTest: the figures test reads headings' anchors the same way
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

/** Every `[text](target)` and `![alt](target)` outside code blocks whose target is not another site. */
function relativeLinks(markdown: string): string[] {
  const targets: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target!)) targets.push(target!);
  }
  return targets;
}

/** What is wrong with one link of `page`, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  const [pathPart = '', fragment] = target.split('#', 2) as [string, string | undefined];
  const file = pathPart === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(pathPart));
  if (!existsSync(file)) return `${page}: ${target} — no file ${relative(ROOT, file)}`;
  if (fragment === undefined || fragment === '') return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return `${page}: ${target} — a fragment into a file that is not a page`;
  return anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(fragment)) ? undefined : `${page}: ${target} — no heading #${fragment}`;
}

describe('documentation links', () => {
  test('GitHub anchors: punctuation and code marks dropped, repeats numbered', () => {
    const anchors = anchorsOf(
      '# The `passmint` command\n## When the only key is lost\n## A, B & C\n## A, B & C\n```sh\n# not a heading\n```\n<a id="explicit"></a>',
    );
    expect([...anchors]).toEqual(['the-passmint-command', 'when-the-only-key-is-lost', 'a-b--c', 'a-b--c-1', 'explicit']);
  });

  test('every relative link in README.md and docs/*.md points to an existing file and heading', () => {
    const broken = PAGES.flatMap((page) => relativeLinks(readFileSync(join(ROOT, page), 'utf8')).flatMap((target) => brokenLink(page, target) ?? []));
    expect(broken).toEqual([]);
    expect(PAGES.length).toBeGreaterThan(10);
  });

  test('the README leads to every page in docs/', () => {
    const linked = new Set(relativeLinks(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((target) => target.split('#')[0]));
    expect(PAGES.filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
  });
});
