import type { JSX } from 'preact';
import type { Template } from '../lib/templates.js';

/** A template chooser (by name, with its id). */
export function TemplatePicker({
  templates,
  value,
  onChange,
  label = 'Template',
  any,
  id = 'template-picker',
}: {
  templates: readonly Template[];
  value: string;
  onChange: (id: string) => void;
  label?: string;
  any?: string;
  id?: string;
}): JSX.Element {
  return (
    <div class="field-row">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)} data-testid={id}>
        {any === undefined ? null : <option value="">{any}</option>}
        {templates.map((template) => (
          <option key={template.id} value={String(template.id)}>
            {template.name} (#{template.id})
          </option>
        ))}
      </select>
    </div>
  );
}
