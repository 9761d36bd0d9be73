// Every `passmint serve` option is also read from the environment and is
// listed in `--help` twice: as a flag with what it does, and with its
// PASSMINT_ variable; the operations guide's table names each variable too.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { environmentName, parseWithEnvironment } from '../../src/cli/env-options.js';
import { serve, SERVE_OPTIONS } from '../../src/cli/serve.js';
import { captureIo } from './io.js';

const options = Object.entries(SERVE_OPTIONS).filter(([name]) => name !== 'help');

describe('passmint serve options', () => {
  test('--help lists every option, with what it does and its PASSMINT_ variable', async () => {
    const { io, stdout } = captureIo(process.cwd());
    expect(await serve.run(['--help'], io)).toBe(0);
    const help = stdout();
    const [flags, environment] = help.split('\nEnvironment');
    expect(environment, 'an Environment section').toBeDefined();
    for (const [name] of options) {
      // The flag at the start of its line, followed by its description.
      expect(flags, `--${name} in the options`).toMatch(new RegExp(`^ {2}(?:-\\w, )?--${name}(?: [A-Z]+)? +\\S`, 'm'));
      expect(environment, `${environmentName(name)} in the environment list`).toMatch(new RegExp(`^ {2}${environmentName(name)} +--${name}$`, 'm'));
    }
  });

  test('every option is read from its variable when the command line does not give it', () => {
    for (const [name, option] of options) {
      const value = option.type === 'boolean' ? 'true' : 'from-the-environment';
      const parsed = parseWithEnvironment([], SERVE_OPTIONS, { [environmentName(name)]: value });
      const expected = option.type === 'boolean' ? true : option.multiple === true ? [value] : value;
      expect(parsed.values[name], name).toEqual(expected);
    }
  });

  test('the operations guide names every variable with its option', () => {
    const guide = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    for (const [name] of options) expect(guide, name).toContain(`| \`${environmentName(name)}\` | \`--${name}\` |`);
  });
});
