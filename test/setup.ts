import { afterEach, beforeEach, vi } from 'vitest';

// A test that logs is a test that hides something: fail it (as zod's suite does).
const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
let logged: string[] = [];

beforeEach(() => {
  logged = [];
  for (const method of methods) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(`console.${method}: ${args.map(String).join(' ')}`);
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  if (logged.length > 0) throw new Error(`The test wrote to the console:\n${logged.join('\n')}`);
});
