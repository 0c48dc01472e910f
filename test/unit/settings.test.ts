import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORE_SETTINGS, loadConfig } from '../../lib/config.js';
import { read, readSettings, setting, SettingsError } from '../../lib/settings.js';
import { CONFIGURATION_PAGE, withSettingsTable } from '../../gateway/settings-doc.js';
import { LICENSES_PAGE, licensesPage } from '../../gateway/licenses-doc.js';
import { otpSettings } from '../../subgraphs/otp/settings.js';

describe('settings', () => {
  it("docs/configuration.md's table is the one generated from the declarations (npm run docs)", () => {
    const page = readFileSync(CONFIGURATION_PAGE, 'utf8');
    expect(page).toBe(withSettingsTable(page));
  });

  it('docs/licenses.md is the one generated from package-lock.json (npm run docs), and names the Elastic-licensed Apollo packages', () => {
    const page = readFileSync(LICENSES_PAGE, 'utf8');
    expect(page).toBe(licensesPage());
    expect(page).toMatch(/\| @apollo\/gateway \| [\d.]+ \| Elastic-2.0 \|/);
  });

  it('reads defaults, typed values, and an empty variable as unset', () => {
    const config = loadConfig({ PORT: '9090', PLATFORM_SPEC_OPEN_ENDPOINTS: 'true', DATABASE_URL: '' });
    expect(config.port).toBe(9090);
    expect(config.specOpenEndpoints).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.graphql.maxAliases).toBe(15);
    expect(readSettings(otpSettings, {}).length).toBe(6);
  });

  it('names every bad variable at once', () => {
    const attempt = () => readSettings(CORE_SETTINGS, { PORT: 'eighty', PLATFORM_SPEC_OPEN_ENDPOINTS: 'yes', STOMP_URL: 'http://broker' });
    expect(attempt).toThrow(SettingsError);
    try {
      attempt();
    } catch (error) {
      expect((error as SettingsError).problems.map((p) => p.split('=')[0])).toEqual(['PORT', 'STOMP_URL', 'PLATFORM_SPEC_OPEN_ENDPOINTS']);
    }
    expect(() => readSettings(otpSettings, { PLATFORM_OTP_LENGTH: '3' })).toThrow(/PLATFORM_OTP_LENGTH/);
    expect(() => readSettings({ n: setting('N', read.integer(1, 5), '1', 'n') }, { N: '-1' })).toThrow(/whole number/);
  });
});
