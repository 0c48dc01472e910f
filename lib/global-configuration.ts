import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SettingsError } from './settings.js';

/**
 * The platform's global configuration (MOSIP's global properties): the UIN,
 * VID, RID and contact rules the components read, and what
 * `GET /v1/syncdata/configs` serves as `globalConfiguration`. Read once at
 * start from PLATFORM_SYNC_GLOBAL_CONFIG, else the file shipped in config/.
 */

/** The configuration files shipped with the platform, used when no setting names others. */
export const SHIPPED_CONFIG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'config', 'syncdata');

const prefixed = (prefix: string, suffixes: string[]) => suffixes.map((suffix) => `${prefix}.${suffix}`);

/** The keys spec Document 1 lists for the global configuration. */
export const GLOBAL_KEYS = [
  ...prefixed('platform.kernel.email', ['max-length', 'min-length', 'special-char', 'domain.ext-max-lenght', 'domain.ext-min-lenght', 'domain.special-char']),
  ...prefixed('platform.kernel.rid', ['length', 'sequence-length', 'machineid-length', 'centerid-length', 'timestamp-length']),
  ...prefixed('platform.kernel.uin', [
    'length',
    'uin-generation-cron',
    'restricted-numbers',
    'uins-to-generate',
    'min-unused-threshold',
    'length.conjugative-even-digits-limit',
    'length.reverse-digits-limit',
    'length.digits-limit',
    'length.repeating-block-limit',
    'length.sequence-limit',
    'length.repeating-limit',
  ]),
  ...prefixed('platform.kernel.prid', ['length', 'sequence-limit', 'repeating-block-limit', 'repeating-limit', 'not-start-with']),
  ...prefixed('platform.kernel.vid', ['length', 'not-start-with', 'length.repeating-block-limit', 'length.repeating-limit', 'length.sequence-limit']),
  ...prefixed('platform.kernel.phone', ['min-length', 'max-length', 'special-char']),
  ...prefixed('platform.kernel.virus-scanner', ['host', 'port']),
  ...prefixed('platform.kernel.keygenerator', [
    'asymmetric-algorithm-name',
    'asymmetric-algorithm-length',
    'symmetric-algorithm-name',
    'symmetric-algorithm-length',
  ]),
  ...prefixed('platform.kernel.crypto', ['symmetric-algorithm-name', 'asymmetric-algorithm-name']),
  'platform.kernel.machineid.length',
  'platform.kernel.registrationcenterid.length',
  'platform.kernel.tokenid.length',
  'platform.kernel.tokenid.sequence-limit',
  'platform.kernel.MISPid.length',
  'platform.kernel.syncdata.registration-center-config-file',
  'platform.kernel.syncdata.global-config-file',
  'platform.kernel.data-key-splitter',
  'platform.supported-languages',
  'auth.header.name',
  'auth.role.prefix',
  'auth.server.validate.url',
];

export type ConfigMap = Readonly<Record<string, string>>;

/** Java properties as operators write them: `key=value` or `key: value`, `#` and `!` comments. */
function parseProperties(text: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const at = line.search(/[=:]/);
    if (at <= 0) throw new Error(`not a key=value line: ${line.slice(0, 40)}`);
    map[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return map;
}

/** A JSON object whose values are strings (numbers and booleans are taken as their text). */
function parseJson(text: string): Record<string, string> {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (!['string', 'number', 'boolean'].includes(typeof item)) throw new Error(`${key} is not a string`);
      return [key, String(item as string | number | boolean)];
    }),
  );
}

/** The most keys a configuration file may hold: the bound of SyncConfigs' two lists (the shipped files hold well under 100). */
export const MAX_CONFIG_KEYS = 1000;

/** One configuration file, parsed and checked to hold every required key and at most MAX_CONFIG_KEYS; any problem is a start-up error naming the setting. */
export function readConfigFile(env: string, file: string, required: readonly string[]): ConfigMap {
  let map: Record<string, string>;
  try {
    const text = readFileSync(file, 'utf8');
    map = file.endsWith('.json') || text.trimStart().startsWith('{') ? parseJson(text) : parseProperties(text);
  } catch (error) {
    throw new SettingsError([`${env}=${file}: cannot be read as a properties or JSON file (${(error as Error).message})`]);
  }
  const missing = required.filter((key) => !(key in map));
  if (missing.length) throw new SettingsError([`${env}=${file}: missing ${missing.join(', ')}`]);
  if (Object.keys(map).length > MAX_CONFIG_KEYS) throw new SettingsError([`${env}=${file}: more than ${MAX_CONFIG_KEYS} keys`]);
  return map;
}

/** The global configuration from its file (PLATFORM_SYNC_GLOBAL_CONFIG), or the shipped one. */
export function loadGlobalConfiguration(file: string | undefined): ConfigMap {
  return readConfigFile('PLATFORM_SYNC_GLOBAL_CONFIG', file ?? path.join(SHIPPED_CONFIG, 'global.properties'), GLOBAL_KEYS);
}
