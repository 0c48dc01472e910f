import { z } from 'zod';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { identifier, instantText, pageArguments } from '../../lib/input.js';
import { parseInstant } from '../../lib/time.js';
import { licenseErrors } from './errors.js';
import { olderNames } from '../../lib/graph/filters.js';

const text = identifier();

/** A license key's statuses, as the wire writes them and the graph's LicenseStatus names them. */
export const LICENSE_STATUSES = ['ACTIVE', 'SUSPENDED', 'BLOCKED'] as const;

/** A new key's first checks, in their order (and REST's, before it sends one): a MISP id, then an expiry that is an instant. */
export function checkedExpiry(mispId: string, licenseExpiryTime: string): Date {
  if (!mispId?.trim()) throw licenseErrors.emptyMisp();
  const expiresAt = parseInstant(licenseExpiryTime ?? '');
  if (!expiresAt) throw licenseErrors.badExpiry();
  return expiresAt;
}

/** A MISP id under its newer name (mispId) or the REST-cased one (MISPId, deprecated in the graph): the rules read MISPId. */
const mispIdOf = { MISPId: text.nullish(), mispId: text.nullish() };
const withMispId = <T extends { MISPId?: string | null; mispId?: string | null }>(given: T) => {
  const { mispId, ...rest } = given;
  return { ...rest, MISPId: mispId ?? rest.MISPId ?? '' };
};
const keyQuery = z.object({ licenseKey: text, ...mispIdOf });

/** A missing or malformed field gets the code of what it is. */
const FIELD_CODES: [test: (field: string) => boolean, code: string][] = [
  [(field) => ['MISPId', 'mispId', 'filter.MISPId', 'filter.mispId'].includes(field), 'KER-LKM-001'],
  [(field) => field.startsWith('permissions'), 'KER-LKM-007'],
  [(field) => field === 'licenseExpiryTime', 'KER-LKM-011'],
  [(field) => field === 'status', 'KER-LKM-010'],
];
export const licenseCodeFor = (field: string): string => FIELD_CODES.find(([test]) => test(field))?.[1] ?? 'KER-LKM-006';

/** The arguments of the license key manager's root fields, for GraphQL and REST alike. */
export const licenseInputs = fieldInputs(
  {
    generateLicenseKey: z.object({ ...mispIdOf, licenseExpiryTime: instantText(text) }).transform(withMispId),
    mapLicensePermissions: keyQuery.extend({ permissions: z.array(z.string().max(128)).min(1).max(64) }).transform(withMispId),
    licensePermissions: keyQuery.transform(withMispId),
    updateLicenseStatus: z.object({ licenseKey: text, status: text }),
    // The portal's list: a MISP id with a control character (NUL, which PostgreSQL refuses) is the caller's mistake.
    licenseKeys: z.object({
      ...pageArguments(),
      filter: z
        .object({ MISPId: text.nullish(), mispId: text.nullish(), status: z.string().nullish() })
        .transform((filter) => olderNames(filter, { mispId: 'MISPId' })!)
        .nullish(),
    }),
  },
  licenseCodeFor,
);
