import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorNote, Loading, When, TableScroll } from '../components/Notes.js';
import { Pager } from '../components/Pager.js';
import { TemplatePicker } from '../components/TemplatePicker.js';
import { getJson, type Page } from '../lib/api.js';
import type { PassSummary } from '../lib/passes.js';
import { Link, navigate, route } from '../lib/router.js';
import { allTemplates } from '../lib/templates.js';
import { useLoad } from '../lib/use-load.js';

/** The search as the address holds it, so a search has a URL and the back button returns to it. */
function searchOf(params: URLSearchParams): { templateId: string; serial: string; name: string; value: string; after: string[] } {
  return {
    templateId: params.get('templateId') ?? '',
    serial: params.get('serialNumber') ?? '',
    name: params.get('name') ?? '',
    value: params.get('value') ?? '',
    after: params.getAll('after'),
  };
}

function addressOf(search: { templateId: string; serial: string; name: string; value: string; after: readonly string[] }): string {
  const params = new URLSearchParams();
  if (search.templateId !== '') params.set('templateId', search.templateId);
  if (search.serial !== '') params.set('serialNumber', search.serial);
  if (search.name !== '' && search.value !== '') {
    params.set('name', search.name);
    params.set('value', search.value);
  }
  for (const cursor of search.after) params.append('after', cursor);
  const text = params.toString();
  return `/passes${text === '' ? '' : `?${text}`}`;
}

/** Search passes by template, serial number and a placeholder's value; a paged list, each opening its page. */
export function PassesPage(): JSX.Element {
  const search = searchOf(route.value.search);
  const templates = useLoad(allTemplates, []);
  const [draft, setDraft] = useState(search);
  const api = new URLSearchParams({ limit: '25' });
  if (search.templateId !== '') api.set('templateId', search.templateId);
  if (search.serial !== '') api.set('serialNumber', search.serial);
  if (search.name !== '' && search.value !== '') api.set(`values.${search.name}`, search.value);
  const after = search.after[search.after.length - 1];
  if (after !== undefined) api.set('after', after);
  const key = api.toString();
  const { data, error, loading } = useLoad(() => getJson<Page<PassSummary>>(`/v1/passes?${key}`), [key]);
  const chosen = (templates.data ?? []).find((template) => String(template.id) === draft.templateId);
  const names = chosen?.placeholder ?? [...new Set((templates.data ?? []).flatMap((template) => template.placeholder ?? []))];
  const submit = (event: SubmitEvent): void => {
    event.preventDefault();
    navigate(addressOf({ ...draft, after: [] }));
  };
  const byName = new Map((templates.data ?? []).map((template) => [template.id, template.name]));
  return (
    <>
      <h1 tabIndex={-1}>Passes</h1>
      <form class="search" onSubmit={submit} data-testid="pass-search" role="search">
        <TemplatePicker
          templates={templates.data ?? []}
          value={draft.templateId}
          onChange={(templateId) => setDraft({ ...draft, templateId })}
          any="Any template"
        />
        <div class="field-row">
          <label for="search-serial">Serial number</label>
          <input id="search-serial" type="text" value={draft.serial} onInput={(event) => setDraft({ ...draft, serial: event.currentTarget.value })} />
        </div>
        <div class="field-row">
          <label for="search-name">Placeholder</label>
          <select id="search-name" value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.currentTarget.value })}>
            <option value="">(none)</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field-row">
          <label for="search-value">Value (exact)</label>
          <input id="search-value" type="text" value={draft.value} onInput={(event) => setDraft({ ...draft, value: event.currentTarget.value })} />
        </div>
        <button type="submit" class="primary">
          Search
        </button>
      </form>
      {loading && data === undefined ? <Loading /> : null}
      <ErrorNote error={error} />
      {data === undefined ? null : data.items.length === 0 ? (
        <p class="note" data-testid="no-passes">
          No pass matches.
        </p>
      ) : (
        <TableScroll label="Passes">
          <table data-testid="passes">
            <thead>
              <tr>
                <th scope="col">Serial number</th>
                <th scope="col">Template</th>
                <th scope="col">Version</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((pass) => (
                <tr key={`${pass.passTypeIdentifier}/${pass.serialNumber}`}>
                  <td class="wrap">
                    <Link to={`/passes/${encodeURIComponent(pass.passTypeIdentifier)}/${encodeURIComponent(pass.serialNumber)}`}>{pass.serialNumber}</Link>
                    {pass.state === undefined || pass.state === 'active' ? null : <span class="badge">{pass.state}</span>}
                  </td>
                  <td class="wrap">{byName.get(pass.templateId) ?? `#${pass.templateId}`}</td>
                  <td>{pass.version}</td>
                  <td>
                    <When at={pass.updated} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {data === undefined ? null : (
        <Pager cursors={search.after} next={data.next} onPage={(cursors) => navigate(addressOf({ ...search, after: [...cursors] }))} />
      )}
    </>
  );
}
