import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { tempDir } from './io.js';

// The other CLI tests call run() in-process; this one runs the built program
// as npm's bin link does. `npm test` builds before the tests.
const bin = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const built = existsSync(bin);
if (!built && process.env['CI']) throw new Error('dist/ is missing: npm test runs `npm run build` before the tests');

describe.skipIf(!built)(`the built passmint command${built ? '' : ' (skipped: run `npm run build` first)'}`, () => {
  test("is a node script whose exit code and output are the command's", () => {
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    const { dir, remove } = tempDir('bin');
    try {
      writeFileSync(
        join(dir, 'template.json'),
        '{\n  "id": 1, "name": "T", "formatVersion": 1, "passType": "pass.com.example.t",\n  "description": { "logoText": "${nmae}" },\n  "placeholder": ["name"]\n}\n',
      );
      const lint = spawnSync(process.execPath, [bin, 'lint', 'template.json'], { cwd: dir, encoding: 'utf8' });
      expect(lint.status).toBe(1);
      expect(lint.stdout).toContain('template.json:3:33: error undeclared-placeholder');
      const none = spawnSync(process.execPath, [bin], { cwd: dir, encoding: 'utf8' });
      expect(none.status).toBe(2);
      expect(none.stderr).toContain('Usage: passmint <command>');
    } finally {
      remove();
    }
  });
});
