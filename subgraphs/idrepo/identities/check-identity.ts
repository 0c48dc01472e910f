import { PlatformError } from '../../../lib/errors.js';
import { fieldsOf, type IdSchemaService } from '../../masterdata/idschema/service.js';
import { idrepoErrors } from '../errors.js';
import { violations, type NumberRules } from '../../../lib/numbers.js';
import type { PlainFile } from './records.js';

/** The checks an identity passes before anything is written: its UIN against the number rules, the rest against the published ID schema. */
export class IdentityChecks {
  constructor(
    private readonly idSchemas: Pick<IdSchemaService, 'validateIdentity'>,
    private readonly uinRules: NumberRules,
  ) {}

  uinOf(identity: Record<string, unknown>): string {
    const uin = identity.UIN;
    if (uin === undefined || uin === null || uin === '') throw idrepoErrors.missing('identity.UIN');
    if (typeof uin !== 'string' && typeof uin !== 'number') throw idrepoErrors.invalid('identity.UIN', 'a number of digits');
    const text = String(uin);
    const problems = violations(text, this.uinRules);
    if (problems.length) throw idrepoErrors.invalid('identity.UIN', problems[0]);
    return text;
  }

  /**
   * The identity against the published ID schema (IDR-IDS-005), its files
   * against its fields (IDR-IDC-005): each document names a document or
   * biometric field the identity holds, biometrics for biometric fields.
   */
  async check(
    identity: Record<string, unknown>,
    documents: readonly { category: string; value: string }[],
  ): Promise<{ files: PlainFile[]; schemaVersion: number }> {
    let checked;
    try {
      checked = await this.idSchemas.validateIdentity(identity);
    } catch (error) {
      // No published schema, or master data out of reach: the identity cannot be checked.
      throw idrepoErrors.masterData(error instanceof PlatformError ? `no published ID schema (${error.code})` : 'the ID schema could not be read');
    }
    const problem = checked.problems[0];
    if (problem) throw idrepoErrors.schema(problem.message);
    const fields = new Map(fieldsOf(checked.schema).map((field) => [field.id, field]));
    const seen = new Set<string>();
    const files = documents.map(({ category, value }): PlainFile => {
      const field = fields.get(category);
      if (!field || (field.type !== 'documentType' && field.type !== 'biometricsType'))
        throw idrepoErrors.validationFailed(`${category} is not a document or biometric field of the ID schema`);
      if (identity[category] === undefined || identity[category] === null)
        throw idrepoErrors.validationFailed(`documents name ${category}, which the identity does not hold`);
      if (seen.has(category)) throw idrepoErrors.validationFailed(`two documents of category ${category}`);
      seen.add(category);
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(value) || !value) throw idrepoErrors.invalid(`documents.${category}.value`, 'not base64');
      return {
        category,
        kind: field.type === 'biometricsType' ? 'BIO' : 'DEMO',
        data: Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64'),
      };
    });
    return { files, schemaVersion: checked.schema.idVersion };
  }
}
