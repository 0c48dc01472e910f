import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codegenComponents, generate, generatedFile } from '../../scripts/codegen.js';

describe('generated GraphQL types (npm run codegen)', () => {
  it('are current for every component: the SDL and operations have not moved since they were generated', async () => {
    const components = codegenComponents();
    expect(components).toEqual(expect.arrayContaining(['auth', 'keys', 'license', 'notify', 'otp']));
    for (const component of components) {
      const generated = await generate(component);
      expect(readFileSync(generatedFile(component, 'types'), 'utf8'), component).toBe(generated.types);
      expect(readFileSync(generatedFile(component, 'operations'), 'utf8'), component).toBe(generated.operations);
    }
  });

  it('refuses a REST operation that selects a field the SDL does not have', async () => {
    await expect(
      generate(
        'license',
        'mutation GenerateLicenseKey($MISPId: String!, $licenseExpiryTime: DateTime!) { generateLicenseKey(input: { MISPId: $MISPId, licenseExpiryTime: $licenseExpiryTime }) { licenseKey { licenceKey } userErrors { field code message } } }',
      ),
    ).rejects.toThrow(/licenceKey/);
  });

  it('types a result field as the SDL declares its nullability, inside the payload the schema serves', async () => {
    const { operations } = await generate('license');
    expect(operations).toContain(
      'export type GenerateLicenseKeyMutation = { generateLicenseKey: { result: { licenseKey: string | null } | null, userErrors: Array<{ field: Array<string> | null, code: string, message: string }> } };',
    );
  });
});
