import { z } from 'zod';
import { setting, type SettingValues } from '../../lib/settings.js';
import { loadKeyPolicy } from './policy.js';

export const keysSettings = {
  policy: setting(
    'PLATFORM_KEY_POLICY',
    z
      .string()
      .optional()
      .transform((json, context) => {
        try {
          return loadKeyPolicy(json);
        } catch (error) {
          context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : 'not a key policy' });
          return z.NEVER;
        }
      }),
    undefined,
    "JSON array of `{applicationId, validityDays, referenceIds, autoGenerate, autoReferenceIds, cryptoRoles}` replacing the key policy (`ROOT`, `PLATFORM`, `IDREPO` and `PREREG`, the keys that seal stored data, are always kept; an entry without `cryptoRoles` takes the default's)",
    "MOSIP's application ids",
  ),
};

export type KeysSettings = SettingValues<typeof keysSettings>;
