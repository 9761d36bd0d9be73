import { batch, computed, effect, signal } from '@preact/signals';
import type { ReadonlySignal } from '@preact/signals';
import { buildPass, compileTemplate, PassmintError, TemplateError, validatePass, validateTemplate } from '../src/index.js';
import type { CompiledTemplate, Issue, Pass, PassIssuer, PassTemplate, Report } from '../src/index.js';
import type { GoogleWalletPass } from '../src/google/index.js';
import { type Example, examples, type FormValue } from './examples/index.js';
import { type JsonSyntaxError, parseJson } from './lib/json-locate.js';
import type { SharedState } from './lib/share.js';
import { addStandInIcon, bestImage, imageErrors, imageRefs, images } from './images.js';
import { fileIssues } from './lib/file-issues.js';
import { previewTable, stringsTables, stringsTexts } from './localization-state.js';
import { localizePass } from './lib/localize.js';
import { contrastIssues, type ContrastImages, type ContrastInput } from './lib/contrast.js';
import { passStyle } from './lib/pass-style.js';
import { posterLayout } from './lib/poster.js';

// The playground's whole state: signals hold what a person typed, computeds derive
// everything else, components only read, and the actions below are the only writers.

/** Who issues the pass, as the issuer form holds it. */
export interface IssuerState {
  readonly teamIdentifier: string;
  readonly organizationName: string;
  readonly webServiceURL: string;
  readonly serialNumber: string;
  readonly authenticationToken: string;
  /** Accept `http://` web service URLs (Wallet allows them on development devices). */
  readonly allowHttp: boolean;
}

/** Where an issue comes from; decides how its `path` is read. */
export type IssueSource = 'json' | 'template' | 'render' | 'pass' | 'value' | 'preview' | 'image' | 'google' | 'strings' | 'design';

/** One row of the issues list. */
export interface IssueEntry {
  readonly id: string;
  readonly source: IssueSource;
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  /** JSON Pointer into the template (`json`, `template`, `render`) or the pass (`pass`, `design`); a value name for `value`. */
  readonly path: string;
  readonly placeholder?: string;
  readonly offset?: number;
  /** For JSON syntax errors: where, 1-based. */
  readonly line?: number;
  readonly column?: number;
  /** Other checks that found the same issue (merged into this entry). */
  readonly alsoFrom?: readonly IssueSource[];
}

/** What the preview found that the library's checks did not (a barcode the drawing code could not encode). */
export const previewProblems = signal<readonly IssueEntry[]>([]);
/** Values the preview's front cuts with an ellipsis (measured once drawn). */
export const cutValues = signal<readonly IssueEntry[]>([]);

const first: Example = examples[0] as Example;

const templateText = (template: unknown): string => `${JSON.stringify(template, null, 2)}\n`;

export const text = signal<string>(templateText(first.template));
export const values = signal<Readonly<Record<string, FormValue>>>(first.values);
export const issuer = signal<IssuerState>({
  teamIdentifier: 'A93A5CM278',
  organizationName: 'Example Inc.',
  webServiceURL: 'https://passes.example.com/',
  serialNumber: crypto.randomUUID(),
  authenticationToken: crypto.randomUUID(),
  allowHttp: false,
});
export const exampleId = signal<string>(first.id);
export type Theme = 'light' | 'dark';
export const theme = signal<Theme>('light');

/** The editor text, parsed. */
export const parsed: ReadonlySignal<{ ok: true; value: unknown } | { ok: false; error: JsonSyntaxError }> = computed(() => parseJson(text.value));

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((item, index) => item === b[index]);

let lastNames: readonly string[] = [];
/** Declared placeholder names, in order, without repeats; the same array while they do not change, so the form does not re-render on every keystroke. */
export const placeholderNames: ReadonlySignal<readonly string[]> = computed(() => {
  const result = parsed.value;
  const declared = result.ok && typeof result.value === 'object' && result.value !== null ? (result.value as { placeholder?: unknown }).placeholder : undefined;
  const names = Array.isArray(declared) ? [...new Set(declared.filter((name): name is string => typeof name === 'string'))] : lastNames;
  if (!sameList(names, lastNames)) lastNames = names;
  return lastNames;
});

/** The template's own report, when the text is JSON. */
export const templateReport: ReadonlySignal<Report | undefined> = computed(() => {
  const result = parsed.value;
  return result.ok ? validateTemplate(result.value) : undefined;
});

/** The issuer as `buildPass` takes it. */
export const passIssuer: ReadonlySignal<PassIssuer> = computed(() => {
  const { teamIdentifier, organizationName, webServiceURL, serialNumber, authenticationToken } = issuer.value;
  return {
    teamIdentifier,
    organizationName,
    serialNumber,
    authenticationToken,
    ...(webServiceURL.trim() === '' ? {} : { webServiceURL: webServiceURL.trim() }),
  };
});

interface ValueSet {
  /** What is passed to the library: only names with a usable value. */
  readonly real: Record<string, unknown>;
  /** For the preview: every name, a missing or broken value shown as its `${name}`. */
  readonly preview: Record<string, unknown>;
  readonly problems: readonly IssueEntry[];
}

const valueSet: ReadonlySignal<ValueSet> = computed(() => {
  const real: Record<string, unknown> = {};
  const preview: Record<string, unknown> = {};
  const problems: IssueEntry[] = [];
  for (const name of placeholderNames.value) {
    const entry = Object.hasOwn(values.value, name) ? values.value[name] : undefined;
    // Values are inserted as text and never re-read, so `${name}` shows literally.
    const shown = `\${${name}}`;
    if (entry === undefined) {
      Object.defineProperty(preview, name, { value: shown, enumerable: true });
      continue;
    }
    let value: unknown = entry.text;
    if (entry.json) {
      try {
        value = JSON.parse(entry.text);
      } catch (error) {
        problems.push({
          id: `value:${name}`,
          source: 'value',
          severity: 'error',
          code: 'invalid-json-value',
          message: `The value of "${name}" is marked JSON but does not parse: ${error instanceof Error ? error.message : String(error)}`,
          path: name,
          placeholder: name,
        });
        Object.defineProperty(preview, name, { value: shown, enumerable: true });
        continue;
      }
    }
    // defineProperty, not assignment: `__proto__` is an ordinary placeholder name.
    Object.defineProperty(real, name, { value, enumerable: true });
    Object.defineProperty(preview, name, { value, enumerable: true });
  }
  return { real, preview, problems };
});

/** What building the pass gave: the pass (if any), the issues of rendering and of the pass. */
export interface BuildResult {
  /** The pass built from the values as they are; `undefined` when it could not be built. */
  readonly pass: Pass | undefined;
  /** A pass for the preview even when values are missing (they show as `${name}`). */
  readonly previewPass: Pass | undefined;
  readonly renderIssues: readonly Issue[];
}

/**
 * The template compiled once per text, so a keystroke in the values form only renders.
 * The interpreter (`codegen: false`): while typing, a template is rendered about once
 * per compile, and generating code would cost more than it saves.
 */
const compiled: ReadonlySignal<{ compiled: CompiledTemplate } | { issues: readonly Issue[] } | undefined> = computed(() => {
  const result = parsed.value;
  if (!result.ok) return undefined;
  // compileTemplate checks the template itself (the checks of validateTemplate): a template
  // with errors is not compiled, and its issues are listed from templateReport, when idle.
  return attempt(() => ({ compiled: compileTemplate(result.value as PassTemplate, { codegen: false }) }));
});

function attempt<T extends object>(run: () => T): T | { issues: readonly Issue[] } {
  try {
    return run();
  } catch (error) {
    // The template's own errors: templateReport lists them.
    if (error instanceof TemplateError) return { issues: [] };
    if (error instanceof PassmintError) return { issues: error.issues };
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { issues: [{ severity: 'error', code: 'invalid-template', message, path: '' }] };
  }
}

const NOTHING: BuildResult = { pass: undefined, previewPass: undefined, renderIssues: [] };

export const build: ReadonlySignal<BuildResult> = computed(() => {
  const template = compiled.value;
  if (template === undefined) return NOTHING;
  if (!('compiled' in template)) return { ...NOTHING, renderIssues: template.issues };
  const { real, preview } = valueSet.value;
  const issuerValue = passIssuer.value;
  const make = (values: Record<string, unknown>) => attempt(() => ({ pass: buildPass(template.compiled, values, issuerValue, { validate: false }) }));
  const built = make(real);
  if ('pass' in built) return { pass: built.pass, previewPass: built.pass, renderIssues: [] };
  const fallback = make(preview);
  return { pass: undefined, previewPass: 'pass' in fallback ? fallback.pass : undefined, renderIssues: built.issues };
});

/** validatePass's report on the pass the preview shows: computed only when the issues are. */
export const passReport: ReadonlySignal<Report | undefined> = computed(() => {
  const pass = build.value.previewPass;
  return pass === undefined ? undefined : validatePass(pass, { allowHttp: issuer.value.allowHttp });
});

let lastShown: Pass | undefined;
/** The pass the preview shows; while the template cannot be rendered, the last one that could (`stale`). */
export const shownPass: ReadonlySignal<{ pass: Pass | undefined; stale: boolean }> = computed(() => {
  const pass = build.value.previewPass;
  if (pass !== undefined) lastShown = pass;
  return { pass: lastShown, stale: pass === undefined };
});

const fromIssue = (source: IssueSource, issue: Issue, index: number): IssueEntry => ({
  ...issue,
  id: `${source}:${index}:${issue.code}:${issue.path}`,
  source,
});

/**
 * The files' issues as packPass reports them (`missing-icon` from the first screen,
 * `unused-image`, `image-size`), and the files the page could not read as images.
 */
const imageIssues: ReadonlySignal<readonly IssueEntry[]> = computed(() => {
  const found: IssueEntry[] = fileIssues(shownPass.value.pass ?? {}, images.value.values()).map((issue) => ({
    ...issue,
    id: `image:${issue.code}:${issue.path}`,
    source: 'image' as const,
  }));
  for (const [path, message] of Object.entries(imageErrors.value)) {
    found.push({ id: `image:unreadable:${path}`, source: 'image', severity: 'error', code: 'invalid-image', message: `${path}: ${message}`, path: `/${path}` });
  }
  return found;
});

/** pass.strings files that cannot be read, at their language's text. */
const stringsIssues: ReadonlySignal<readonly IssueEntry[]> = computed(() =>
  [...stringsTables.value].flatMap(([language, table]): IssueEntry[] => {
    if (table instanceof Map) return [];
    const issue = table as Issue;
    return [
      {
        severity: issue.severity === 'error' ? 'error' : 'warning',
        code: issue.code,
        id: `strings:${language}`,
        source: 'strings',
        message: `${language}.lproj/pass.strings: ${issue.message}`,
        path: `/${language}.lproj/pass.strings`,
      },
    ];
  }),
);

// ---- design checks: what Wallet accepts but people cannot read, or a poster without its seating ----

let lastContrastInput: ContrastInput | undefined;
/**
 * What the contrast checks read of the shown pass: the same object while the colors,
 * the style and the poster layout stay the same, so typing a value or a label does not
 * re-run the checks (the computed below follows only this and the images).
 */
const contrastInput: ReadonlySignal<ContrastInput | undefined> = computed(() => {
  const pass = shownPass.value.pass;
  if (pass === undefined) return undefined;
  const schemes = Array.isArray(pass.preferredStyleSchemes) ? pass.preferredStyleSchemes : [];
  const poster =
    pass.posterGeneric !== undefined
      ? 'posterGeneric'
      : pass.eventTicket !== undefined && schemes.includes('posterEventTicket')
        ? 'posterEventTicket'
        : undefined;
  const next: ContrastInput = {
    backgroundColor: pass.backgroundColor,
    foregroundColor: pass.foregroundColor,
    labelColor: pass.labelColor,
    footerBackgroundColor: pass.footerBackgroundColor,
    style: passStyle(pass),
    poster,
  };
  const last = lastContrastInput;
  const same = last !== undefined && (Object.keys(next) as (keyof ContrastInput)[]).every((key) => last[key] === next[key]);
  if (!same) lastContrastInput = next;
  return lastContrastInput;
});

/** The average colors of the images text is drawn on; read when the images change. */
const contrastImages: ReadonlySignal<ContrastImages> = computed(() => {
  const map = images.value;
  return { strip: bestImage(map, 'strip')?.average, background: bestImage(map, 'background')?.average, artwork: bestImage(map, 'artwork')?.average };
});

/** Labels and values under WCAG's contrast thresholds: computed only when the colors or the images change. */
const contrastFindings: ReadonlySignal<readonly IssueEntry[]> = computed(() => {
  const input = contrastInput.value;
  if (input === undefined) return [];
  return contrastIssues(input, contrastImages.value).map((issue) => ({ ...issue, id: `design:${issue.code}:${issue.path}`, source: 'design' as const }));
});

const hasSeating = (semantics: Record<string, unknown>): boolean =>
  (Array.isArray(semantics['seats']) && semantics['seats'].length > 0) ||
  (typeof semantics['admissionLevel'] === 'string' && semantics['admissionLevel'] !== '');

/** A poster event ticket without `seats` (or `admissionLevel`): its footer has no seating to show. */
const posterFindings: ReadonlySignal<readonly IssueEntry[]> = computed(() => {
  const pass = shownPass.value.pass;
  if (pass === undefined || posterLayout(pass)?.kind !== 'posterEventTicket') return [];
  const semantics = typeof pass.semantics === 'object' && pass.semantics !== null ? (pass.semantics as Record<string, unknown>) : undefined;
  if (semantics !== undefined && hasSeating(semantics)) return [];
  return [
    {
      id: 'design:poster-no-seats',
      source: 'design',
      severity: 'warning',
      code: 'poster-no-seats',
      message:
        'A poster event ticket shows its seating in the footer from the semantic tag `seats` (section, row, seat) — or `admissionLevel` for general admission; this pass has neither, so the poster shows no seat.',
      path: semantics === undefined ? '/preferredStyleSchemes' : '/semantics',
    },
  ];
});

/** The Google Wallet mapping, once its code has loaded (it loads when the page is idle). */
export const googleMapper = signal<((pass: Pass, images: ReadonlyMap<string, string>) => GoogleWalletPass) | undefined>(undefined);

/** The shown pass as Google Wallet's class and object, with its loss report; `undefined` until the mapping has loaded. */
export const googlePass: ReadonlySignal<GoogleWalletPass | undefined> = computed(() => {
  const map = googleMapper.value;
  const own = shownPass.value.pass;
  if (map === undefined || own === undefined) return undefined;
  // In the language the preview shows.
  const table = previewTable.value;
  const pass = table === undefined ? own : localizePass(own, table);
  // Google reads each image once, at its plain name: the densest the page has.
  const urls = new Map<string, string>();
  for (const image of images.value.values()) {
    const plain = image.path.replace(/@[23]x\.png$/, '.png');
    const best = images.value.get(plain.replace(/\.png$/, '@3x.png')) ?? images.value.get(plain.replace(/\.png$/, '@2x.png')) ?? images.value.get(plain);
    if (best !== undefined) urls.set(plain, best.url);
  }
  try {
    return map(pass, urls);
  } catch {
    return undefined;
  }
});

/** What Google Wallet cannot show of the pass: issues of their own kind, listed apart. */
export const googleIssues: ReadonlySignal<readonly IssueEntry[]> = computed(() =>
  (googlePass.value?.losses ?? []).map((loss, index) => ({ ...loss, id: `google:${index}:${loss.code}:${loss.path}`, source: 'google' as const })),
);

/** Every issue, in the order a person fixes them: JSON, template, values, rendering, pass. */
export const issues: ReadonlySignal<readonly IssueEntry[]> = computed(() => {
  const result = parsed.value;
  if (!result.ok) {
    const { message, line, column, offset } = result.error;
    return [{ id: 'json', source: 'json', severity: 'error', code: 'invalid-json', message, path: '', offset, line, column }];
  }
  const { renderIssues } = build.value;
  const report = passReport.value;
  return mergeDuplicates([
    ...(templateReport.value?.issues ?? []).map((issue, index) => fromIssue('template', issue, index)),
    ...valueSet.value.problems,
    ...renderIssues.map((issue, index) => fromIssue('render', issue, index)),
    ...(report?.issues ?? []).map((issue, index) => fromIssue('pass', issue, index)),
    ...previewProblems.value,
    ...cutValues.value,
    ...imageIssues.value,
    ...stringsIssues.value,
    ...contrastFindings.value,
    ...posterFindings.value,
  ]);
});

/** The issues as the list and the editor show them: they follow {@link issues} once the keystroke's frame is painted and the page is idle, so typing never waits for the checks. */
export const shownIssues = signal<readonly IssueEntry[]>([]);
/** Google Wallet's losses, following the same way. */
export const shownGoogleIssues = signal<readonly IssueEntry[]>([]);

const whenIdle = (run: (deadline?: IdleDeadline) => void): number =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 200 }) : window.setTimeout(run, 30);
/** Whether a key or click is waiting for the page (Chromium's `isInputPending`; elsewhere, never known). */
const inputPending = (): boolean => (navigator as { scheduling?: { isInputPending?: () => boolean } }).scheduling?.isInputPending?.() === true;
const cancelIdle = (id: number): void => (typeof cancelIdleCallback === 'function' ? cancelIdleCallback(id) : clearTimeout(id));

// The template's checks look at `/description/…`, the pass's at the same place
// without that prefix: one finding seen twice is listed once, at the template.
const passPath = (entry: IssueEntry): string =>
  entry.source === 'template' || entry.source === 'render' ? entry.path.replace(/^\/description(?=\/|$)/, '') : entry.path;

function mergeDuplicates(list: readonly IssueEntry[]): readonly IssueEntry[] {
  const seen = new Map<string, number>();
  const merged: IssueEntry[] = [];
  for (const entry of list) {
    // What the preview could not draw is already said when a check found a problem at the same place.
    if (entry.source === 'preview' && merged.some((other) => passPath(other) === entry.path)) continue;
    const key = `${entry.code}\u0000${passPath(entry)}`;
    const at = entry.source === 'json' || entry.source === 'value' ? undefined : seen.get(key);
    const kept = at === undefined ? undefined : merged[at];
    if (kept !== undefined && at !== undefined) {
      if (kept.source !== entry.source) merged[at] = { ...kept, alsoFrom: [...(kept.alsoFrom ?? []), entry.source] };
      continue;
    }
    seen.set(key, merged.length);
    merged.push(entry);
  }
  return merged;
}

// ---- actions -------------------------------------------------------------

/** The editor reports a change of its text. */
export function setText(next: string): void {
  text.value = next;
}

/** A value typed into the form. */
export function setValue(name: string, next: Partial<FormValue>): void {
  const current = Object.hasOwn(values.value, name) ? values.value[name] : undefined;
  values.value = { ...values.value, [name]: { text: next.text ?? current?.text ?? '', json: next.json ?? current?.json ?? false } };
}

/** A change in the issuer form. */
export function setIssuer(next: Partial<IssuerState>): void {
  issuer.value = { ...issuer.value, ...next };
}

/** New random serial number and authentication token, as `buildPass` would make them. */
export function regenerateIdentifiers(): void {
  setIssuer({ serialNumber: crypto.randomUUID(), authenticationToken: crypto.randomUUID() });
}

/** Loads an example: its template replaces the text, its values are laid over what was typed. */
export function loadExample(id: string): void {
  const example = examples.find((candidate) => candidate.id === id);
  if (example === undefined) return;
  batch(() => {
    exampleId.value = id;
    text.value = templateText(example.template);
    values.value = { ...values.value, ...example.values };
    // Every example is a pass Wallet accepts: with the stand-in icon when the icon slot is empty.
    addStandInIcon();
  });
}

const ISSUER_KEYS = [
  'serialNumber',
  'passTypeIdentifier',
  'formatVersion',
  'description',
  'organizationName',
  'teamIdentifier',
  'authenticationToken',
  'webServiceURL',
];

/**
 * Turns a pass (from an inspected .pkpass) into the editor's template: its body becomes
 * `description`, its identifiers the issuer's fields, no placeholders yet.
 */
export function loadPassAsTemplate(pass: Readonly<Record<string, unknown>>): void {
  const body = Object.fromEntries(Object.entries(pass).filter(([key]) => !ISSUER_KEYS.includes(key)));
  const string = (key: string, fallback: string): string => (typeof pass[key] === 'string' ? (pass[key] as string) : fallback);
  const template = {
    id: 1,
    name: string('description', 'Imported pass'),
    formatVersion: 1,
    passType: string('passTypeIdentifier', 'pass.com.example'),
    description: body,
    placeholder: [],
  };
  batch(() => {
    exampleId.value = '';
    text.value = templateText(template);
    issuer.value = {
      ...issuer.value,
      teamIdentifier: string('teamIdentifier', issuer.value.teamIdentifier),
      organizationName: string('organizationName', issuer.value.organizationName),
      webServiceURL: string('webServiceURL', ''),
      serialNumber: string('serialNumber', issuer.value.serialNumber),
      authenticationToken: string('authenticationToken', issuer.value.authenticationToken),
    };
  });
}

/** Everything a shared link carries. */
export const sharedState: ReadonlySignal<SharedState> = computed(() => {
  const images = imageRefs.value;
  return {
    template: text.value,
    values: values.value,
    issuer: { ...issuer.value },
    ...(Object.keys(images).length === 0 ? {} : { images }),
    ...(Object.keys(stringsTexts.value).length === 0 ? {} : { strings: stringsTexts.value }),
  };
});

/** Why the link the page was opened with (or pasted) could not be read; '' when it could. */
export const linkProblem = signal('');

/** Applies a shared link's state. */
export function applySharedState(state: SharedState): void {
  const known = issuer.value;
  const pick = <K extends keyof IssuerState>(key: K): IssuerState[K] => {
    const given = state.issuer[key];
    return (typeof given === typeof known[key] ? given : known[key]) as IssuerState[K];
  };
  batch(() => {
    text.value = state.template;
    values.value = state.values;
    stringsTexts.value = state.strings ?? {};
    issuer.value = {
      teamIdentifier: pick('teamIdentifier'),
      organizationName: pick('organizationName'),
      webServiceURL: pick('webServiceURL'),
      serialNumber: pick('serialNumber'),
      authenticationToken: pick('authenticationToken'),
      allowHttp: pick('allowHttp'),
    };
    exampleId.value = examples.find((example) => templateText(example.template) === state.template)?.id ?? '';
  });
}

/** The picker's value: the example whose text is exactly in the editor, or '' once edited. */
const exampleTexts = examples.map((example) => [example.id, templateText(example.template)] as const);
export const pickerValue: ReadonlySignal<string> = computed(() => {
  const current = text.value;
  return exampleTexts.find(([, candidate]) => candidate === current)?.[0] ?? '';
});

/** Light or dark. */
export function setTheme(next: Theme): void {
  theme.value = next;
}

// Started last: the first run computes the issues, which needs everything above.
let issuesPending = 0;
let firstRun = true;

/** Brings the shown issues up to date now (the first screen, a shared link just opened). */
export function refreshIssuesNow(): void {
  cancelIdle(issuesPending);
  batch(() => {
    shownIssues.value = issues.peek();
    shownGoogleIssues.value = googleIssues.peek();
  });
}

/**
 * The checks in slices (each computed is kept until its inputs change): while typing, one
 * slice per idle time between frames, so a key never waits for more than one slice (with
 * 500 fields the whole refresh is a 6–17 ms task, a slice a few milliseconds) and a state
 * the next key replaces is not checked to the end; once the page is idle, all at once.
 */
const CHECK_SLICES: readonly (() => unknown)[] = [
  () => templateReport.peek(),
  () => passReport.peek(),
  () => imageIssues.peek(),
  () => [contrastFindings.peek(), posterFindings.peek()],
  () => googleIssues.peek(),
];

/** Idle time left above which the page draws no frames (Chromium's idle periods between frames are shorter than a frame). */
const LONG_IDLE_MS = 20;

function refreshInSlices(step: number): void {
  issuesPending = whenIdle((deadline) => {
    // One slice per idle time between frames (while typing); slice after slice in a long idle
    // time (no frame to draw: more than 20 ms left), until a key or click waits.
    let next = step;
    do {
      const slice = CHECK_SLICES[next];
      if (slice === undefined) return refreshIssuesNow();
      slice();
      next++;
    } while (deadline !== undefined && deadline.timeRemaining() > LONG_IDLE_MS && !inputPending());
    refreshInSlices(next);
  });
}

effect(() => {
  // Only the inputs are read here; the checks themselves run in the idle callbacks.
  void [
    text.value,
    values.value,
    issuer.value,
    images.value,
    imageErrors.value,
    stringsTexts.value,
    previewProblems.value,
    cutValues.value,
    googleMapper.value,
  ];
  if (firstRun) {
    // The first screen lists its issues from the start: never "No issues" for a pass Wallet refuses.
    firstRun = false;
    refreshIssuesNow();
    return;
  }
  cancelIdle(issuesPending);
  refreshInSlices(0);
});
