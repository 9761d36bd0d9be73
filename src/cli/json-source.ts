import { parseJsonText, type Issue, type JsonText } from '../index.js';
import { readTextInput } from './files.js';
import type { CliIo } from './io.js';

/** A JSON file named on the command line: its name as given, and its parsed text. */
export interface JsonSource {
  readonly file: string;
  readonly json: JsonText;
}

/** An issue with the place in a file it points at (1-based line and column). */
export interface LocatedIssue extends Issue {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * Reads and parses a JSON file; a file that is not JSON comes back with an
 * `invalid-json` issue (and no `value`), never an exception.
 *
 * @example
 * ```ts
 * const source = readJsonSource(io, 'template.json', 'the template');
 * if (source.json.value === undefined) printIssues(source.json.issues.map((issue) => locateIssue(source, issue)));
 * ```
 */
export function readJsonSource(io: CliIo, file: string, what: string): JsonSource {
  return { file, json: parseJsonText(readTextInput(io, file, what)) };
}

/**
 * Where `issue` is in `source`: `pointer` (by default the issue's own path)
 * leads to a member, and `offset` (by default a text issue's own, when the
 * pointer is its path) to the character inside its string. A syntax issue's
 * (`invalid-json`, `trailing-comma`) `offset` is already an index into the text.
 */
export function locateIssue(
  source: JsonSource,
  issue: Issue,
  pointer: string = issue.path,
  offset: number | undefined = pointer === issue.path ? issue.offset : undefined,
): LocatedIssue {
  // A syntax issue's offset is an index into the text.
  const place =
    (issue.code === 'invalid-json' || issue.code === 'trailing-comma') && issue.offset !== undefined
      ? source.json.position(issue.offset)
      : (source.json.locate(pointer, offset) ?? { line: 1, column: 1 });
  return { ...issue, file: source.file, line: place.line, column: place.column };
}

/** One issue as compilers print them: `file:line:column: severity code message`. */
export function formatIssue(issue: LocatedIssue): string {
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.severity} ${issue.code} ${cliMessage(issue)}`;
}

/**
 * An issue's message for the command line: where the library's message names
 * a library option (`{ allowHttp: true }`), the command's option is what the
 * reader can actually give.
 *
 * @example
 * ```ts
 * cliMessage(issue); // "… only on development devices; add --allow-http to allow it)"
 * ```
 */
export function cliMessage(issue: Issue): string {
  return issue.code === 'insecure-web-service-url' ? issue.message.replace('pass { allowHttp: true }', 'add --allow-http') : issue.message;
}

/** An issue for JSON output: the location first, then the issue's own members. */
export function issueJson(issue: LocatedIssue): Record<string, unknown> {
  const { file, line, column, ...rest } = issue;
  return { file, line, column, ...rest };
}

/** "1 error, 2 warnings" */
export function countIssues(issues: readonly Issue[]): string {
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  const warnings = issues.length - errors;
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
}
