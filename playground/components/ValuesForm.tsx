import { useComputed } from '@preact/signals';
import type { JSX } from 'preact';
import { valueInputId } from '../lib/issue-target.js';
import { placeholderNames, setValue, values } from '../state.js';

function ValueInput({ name }: { name: string }): JSX.Element {
  // Subscribes to this name's entry only: typing in one input re-renders one row, not all of them.
  const entry = useComputed(() => (Object.hasOwn(values.value, name) ? values.value[name] : undefined)).value;
  const id = valueInputId(name);
  return (
    <div class="value-row">
      <label for={id}>{name}</label>
      <input
        id={id}
        type="text"
        data-testid="value-input"
        data-name={name}
        value={entry?.text ?? ''}
        placeholder="no value yet"
        spellcheck={false}
        onInput={(event) => setValue(name, { text: event.currentTarget.value })}
      />
      <label class="json-toggle" title="Parse the text as JSON: a number, boolean, array or object">
        <input
          type="checkbox"
          aria-label={`${name} as JSON`}
          data-testid="json-toggle"
          checked={entry?.json ?? false}
          onChange={(event) => setValue(name, { json: event.currentTarget.checked })}
        />
        JSON
      </label>
    </div>
  );
}

/** One input per declared placeholder; follows the template, keeps what was typed. */
export function ValuesForm(): JSX.Element {
  const names = placeholderNames.value;
  if (names.length === 0) return <p class="empty">The template declares no placeholders.</p>;
  return (
    <div class="values" data-testid="values-form">
      {names.map((name) => (
        <ValueInput key={name} name={name} />
      ))}
    </div>
  );
}
