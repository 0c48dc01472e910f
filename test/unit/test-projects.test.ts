// The PGlite project runs a chosen part of the REST suite: a misspelt name there would drop a
// file's only embedded run without a word, and a new component would have none.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPONENTS } from '../../gateway/components.js';
import { PGLITE_SMOKE } from '../../vitest.config.js';

describe('the PGlite smoke project', () => {
  it('names only REST test files that exist', () => {
    for (const file of PGLITE_SMOKE) expect(existsSync(path.resolve(file)), file).toBe(true);
  });

  it('runs at least one REST file of every component on PGlite', () => {
    const names = PGLITE_SMOKE.map((file) => path.basename(file, '.test.ts'));
    for (const component of COMPONENTS) {
      expect(
        names.some((name) => name === component.name || name.startsWith(`${component.name}-`)),
        component.name,
      ).toBe(true);
    }
  });
});
