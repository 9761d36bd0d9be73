import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorNote, Loading, TableScroll } from '../components/Notes.js';
import { Pager } from '../components/Pager.js';
import { getJson, type Page } from '../lib/api.js';
import { Link, navigate } from '../lib/router.js';
import { can } from '../lib/session.js';
import type { Template } from '../lib/templates.js';
import { useLoad } from '../lib/use-load.js';

const STARTER = (name: string): Record<string, unknown> => ({
  name,
  formatVersion: 1,
  passType: 'pass.com.example.card',
  description: {
    logoText: name,
    foregroundColor: 'rgb(255, 255, 255)',
    backgroundColor: 'rgb(30, 64, 175)',
    labelColor: 'rgb(191, 219, 254)',
    barcodes: [{ message: '${memberId}', format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1' }],
    generic: { primaryFields: [{ key: 'name', label: 'Name', value: '${name}' }], secondaryFields: [{ key: 'id', label: 'Number', value: '${memberId}' }] },
  },
  placeholder: ['name', 'memberId'],
});

function NewTemplate(): JSX.Element {
  const [error, setError] = useState<unknown>(undefined);
  const create = (event: SubmitEvent): void => {
    event.preventDefault();
    const name = ((event.currentTarget as HTMLFormElement).elements.namedItem('name') as HTMLInputElement).value.trim();
    setError(undefined);
    getJson<Template>('/v1/templates', { method: 'POST', json: STARTER(name === '' ? 'New card' : name) }).then(
      (created) => navigate(`/templates/${created.id}`),
      setError,
    );
  };
  return (
    <form class="inline-form" onSubmit={create} data-testid="new-template">
      <label for="new-template-name">New template's name</label>
      <input id="new-template-name" name="name" type="text" maxLength={200} />
      <button type="submit">Create and open</button>
      <ErrorNote error={error} />
    </form>
  );
}

/** The templates, paged, each opening in the designer. */
export function TemplatesPage(): JSX.Element {
  const [cursors, setCursors] = useState<readonly string[]>([]);
  const after = cursors[cursors.length - 1];
  const { data, error, loading } = useLoad(() => getJson<Page<Template>>(`/v1/templates?limit=25${after === undefined ? '' : `&after=${after}`}`), [after]);
  return (
    <>
      <h1 tabIndex={-1}>Templates</h1>
      {can('admin') ? <NewTemplate /> : null}
      {loading && data === undefined ? <Loading /> : null}
      <ErrorNote error={error} />
      {data === undefined ? null : data.items.length === 0 ? (
        <p class="note">No templates yet.</p>
      ) : (
        <TableScroll label="Templates">
          <table data-testid="templates">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Pass type</th>
                <th scope="col">Placeholders</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((template) => (
                <tr key={template.id}>
                  <td>
                    <Link to={`/templates/${template.id}`}>{template.name}</Link>
                  </td>
                  <td>{template.id}</td>
                  <td class="wrap">
                    <code>{template.passType}</code>
                  </td>
                  <td class="wrap">{(template.placeholder ?? []).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {data === undefined ? null : <Pager cursors={cursors} next={data.next} onPage={setCursors} />}
    </>
  );
}
