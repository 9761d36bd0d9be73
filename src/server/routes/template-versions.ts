import { templateVersions } from '../db/programs.js';
import { defineRoute, type Route } from './define.js';
import { jsonAnswer, problemAnswer } from './docs.js';
import { json } from './responses.js';
import { nullable, object } from './schemas.js';

/** Most versions the list shows (the newest). */
const MAX_VERSIONS = 100;

/** A template's versions and how many passes are at each. */
export const templateVersionRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/templates/{id}/versions',
    auth: 'read',
    summary: "A template's versions",
    description:
      `Every change to a template (its body or one of its files) makes a version. Newest first, at most ${MAX_VERSIONS}: when, by which API key (\`keyId\`, when the change recorded it; otherwise \`null\`), whether only files changed, and how many passes were last rendered from it (a pass shows its own as \`templateVersion\`). ` +
      '`unversioned` counts passes made before versions were recorded. Passes at an older version are brought up by `POST /v1/templates/{id}/publish`.',
    responses: {
      200: jsonAnswer(
        object({
          templateId: { type: 'integer' },
          version: { type: 'integer', description: "The template's current version." },
          versions: {
            type: 'array',
            items: object({
              version: { type: 'integer' },
              created: { type: 'string', format: 'date-time' },
              keyId: nullable('string'),
              filesChanged: { type: 'boolean' },
              passes: { type: 'integer' },
            }),
          },
          unversioned: { type: 'integer' },
        }),
        'The versions.',
      ),
      404: problemAnswer('No such template.'),
    },
    handler: async ({ params }, { db, templates }) => {
      const template = await templates.fresh(params.id);
      const { versions, unknown } = await templateVersions(db, template.template.id, MAX_VERSIONS);
      return json({
        templateId: template.template.id,
        version: template.version,
        versions: versions.map((entry) => ({
          version: entry.version,
          created: entry.created.toISOString(),
          keyId: entry.keyId,
          filesChanged: entry.filesChanged,
          passes: entry.passes,
        })),
        unversioned: unknown,
      });
    },
  }),
];
