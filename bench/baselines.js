// The three baselines of ../shared/bench/README.md, for the reference workload.

import Handlebars from 'handlebars';

/**
 * limit: what a person would write by hand for this one template — one
 * object literal, no checks. Nothing can build this object faster.
 *
 * @param {Record<string, string>} v
 */
export function limit(v) {
  return {
    barcode: { message: v.barcode, format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
    logoText: v.eventName,
    foregroundColor: '#ffffff',
    backgroundColor: 'rgb(60, 65, 76)',
    generic: {
      primaryFields: [{ key: 'event', value: v.eventName }],
      secondaryFields: [
        { key: 'venue', label: 'Venue', value: v.venue },
        { key: 'date', label: 'Date', value: v.date, textAlignment: 'PKTextAlignmentRight' },
      ],
      auxiliaryFields: [
        { key: 'seat', label: 'Seat', value: 'Row ' + v.seat },
        { key: 'holder', label: 'Holder', value: v.holder },
      ],
    },
  };
}

/**
 * handlebars: the body's JSON text with each `${name}` turned into `{{name}}`,
 * compiled once with `noEscape`; rendering is the template call plus `JSON.parse`.
 *
 * @param {unknown} body the template's `description`
 * @returns {(values: object) => unknown}
 */
export function handlebarsRenderer(body) {
  const source = JSON.stringify(body).replace(/\$\{([^}]*)\}/g, '{{$1}}');
  const template = Handlebars.compile(source, { noEscape: true });
  return (values) => JSON.parse(template(values));
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/**
 * naive: a recursive walk that runs `String.prototype.replace` with a regular
 * expression on every string.
 *
 * @param {unknown} body
 * @param {Record<string, unknown>} values
 * @returns {unknown}
 */
export function naiveRender(body, values) {
  if (typeof body === 'string') return body.replace(PLACEHOLDER, (_, name) => String(values[name]));
  if (Array.isArray(body)) return body.map((item) => naiveRender(item, values));
  if (body !== null && typeof body === 'object') {
    const out = {};
    for (const key of Object.keys(body)) out[key] = naiveRender(body[key], values);
    return out;
  }
  return body;
}
