import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { stringsTemplate, templateTexts } from '../lib/localize.js';
import { addLanguage, LANGUAGE, previewLanguage, removeLanguage, setStrings, stringsTables, stringsTexts } from '../localization-state.js';
import { parsed, shownPass } from '../state.js';

/** One pass.strings per language, edited as text; the preview can show each language. */
export function LocalizationsPanel(): JSX.Element {
  const [draft, setDraft] = useState('');
  const languages = Object.keys(stringsTexts.value);
  const valid = LANGUAGE.test(draft) && !languages.includes(draft);
  const add = (): void => {
    if (!valid) return;
    // Starts with every text of the template, each translated as itself: change the right-hand sides.
    // Values filled in from placeholders are one holder's (a name, a member number): not in the table.
    const template = parsed.peek();
    const body =
      template.ok && typeof template.value === 'object' && template.value !== null ? (template.value as { description?: unknown }).description : undefined;
    addLanguage(draft, stringsTemplate(templateTexts(shownPass.peek().pass ?? {}, body ?? {})));
    previewLanguage.value = draft;
    setDraft('');
  };
  return (
    <div class="localizations-panel" data-testid="localizations">
      <p class="hint">
        Wallet shows a pass in the phone's language when the package has <code>xx.lproj/pass.strings</code>: each label, value or logo text that is a key there
        is replaced by its translation. Lines read <code>"Member" = "Mitglied";</code>. The files go into the signed package and the unsigned bundle.
      </p>
      <div class="toolbar">
        <label for="new-language">Language</label>
        <input
          id="new-language"
          type="text"
          size={8}
          placeholder="de, fr, pt-BR"
          value={draft}
          onInput={(event) => setDraft(event.currentTarget.value.trim())}
          onKeyDown={(event) => {
            if (event.key === 'Enter') add();
          }}
        />
        <button type="button" disabled={!valid} onClick={add} data-testid="add-language">
          Add language
        </button>
      </div>
      {languages.map((language) => {
        const table = stringsTables.value.get(language);
        return (
          <div key={language} class="strings-file">
            <label for={`strings-${language}`}>
              <code>{language}.lproj/pass.strings</code>
            </label>
            <textarea
              id={`strings-${language}`}
              rows={6}
              spellcheck={false}
              value={stringsTexts.value[language] ?? ''}
              onInput={(event) => setStrings(language, event.currentTarget.value)}
              data-testid={`strings-${language}`}
            />
            <div class="toolbar">
              <span class="note">{table instanceof Map ? `${table.size} translation${table.size === 1 ? '' : 's'}` : 'cannot be read: see the issues'}</span>
              <button type="button" class="small" onClick={() => (previewLanguage.value = language)} aria-pressed={previewLanguage.value === language}>
                Preview in {language}
              </button>
              <button type="button" class="small" onClick={() => removeLanguage(language)}>
                Remove {language}
              </button>
            </div>
          </div>
        );
      })}
    </div>
  );
}
