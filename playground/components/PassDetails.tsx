import type { JSX } from 'preact';
import type { Field, Pass } from '../../src/index.js';
import { formatFieldValue } from '../lib/field-format.js';
import { linkify } from '../lib/linkify.js';

/** A field's value as Wallet's lists show it: formatted, its links live. */
export function Value({ field }: { field: Field }): JSX.Element {
  const runs = linkify(field, formatFieldValue(field));
  return (
    <>
      {runs.map((run, index) =>
        run.href === undefined ? (
          run.text
        ) : (
          <a key={index} href={run.href} target="_blank" rel="noopener noreferrer">
            {run.text}
          </a>
        ),
      )}
    </>
  );
}

/** Fields as Wallet lists them on the Pass Details page: label over value, links live. */
export function DetailsList({ fields, testId }: { fields: readonly Field[]; testId?: string }): JSX.Element {
  return (
    <dl class="details-group" data-testid={testId}>
      {fields.map((field, index) => (
        <div key={`${field.key}:${index}`} class="details-row" data-key={field.key}>
          {field.label === undefined ? null : <dt>{String(field.label)}</dt>}
          <dd>
            <Value field={field} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The back of a pass as current iOS shows it: the Pass Details screen (opened from
 * the pass's "…" button) in the system's colors, not the pass's — the pass's icon
 * and organization, every back field as a row of a grouped list with its links
 * live (URLs, e-mail addresses, phone numbers, `<a href>`), then the switches and
 * the Remove Pass button Wallet adds itself.
 */
export function PassDetails({ pass, fields, icon }: { pass: Pass; fields: readonly Field[]; icon: string | undefined }): JSX.Element {
  return (
    <article class="pass-details" data-testid="pass-back" aria-label="Pass Details (the back of the pass)">
      <p class="details-title">Pass Details</p>
      <header class="details-head">
        {icon === undefined ? <span class="details-icon empty" aria-hidden="true" /> : <img class="details-icon" src={icon} alt="" />}
        <div>
          <strong>{pass.organizationName ?? ''}</strong>
          {typeof pass.description === 'string' ? <span>{pass.description}</span> : null}
        </div>
      </header>
      {fields.length === 0 ? null : <DetailsList fields={fields} testId="back-fields" />}
      <div class="details-group" aria-hidden="true">
        <div class="details-row toggle">
          Automatic Updates <span class="switch" />
        </div>
        <div class="details-row toggle">
          Allow Notifications <span class="switch" />
        </div>
      </div>
      <div class="details-group" aria-hidden="true">
        <div class="details-row danger">Remove Pass</div>
      </div>
    </article>
  );
}
