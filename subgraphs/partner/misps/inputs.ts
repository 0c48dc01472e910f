import { z } from 'zod';
import { identifier, pageArguments, text } from '../../../lib/input.js';
import { mispName } from './names.js';

const id = identifier(36).trim().min(1);
/** A MISP's name as it is kept (names.ts): two names that differ only in width, invisible characters or spacing are one name. */
const name = identifier(256).transform(mispName).pipe(z.string().min(1).max(128));
const email = z.email().max(128);
const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{4,20}$/, 'a phone number');
const address = text(512).trim().min(1);
/** The graph's MISP statuses as the rows (and MOSIP's REST) spell them. */
export const MISP_STATUS_SPELLING = { ACTIVE: 'Active', APPROVED: 'Approved', REJECTED: 'Rejected' } as const;
export type MispStatusSpelling = (typeof MISP_STATUS_SPELLING)[keyof typeof MISP_STATUS_SPELLING];
type GraphMispStatus = keyof typeof MISP_STATUS_SPELLING;
/** Each spelling (the rows', REST's) as the graph's enum value. */
export const MISP_STATUS_OF_SPELLING = Object.fromEntries(Object.entries(MISP_STATUS_SPELLING).map(([graph, spelled]) => [spelled, graph])) as Record<
  MispStatusSpelling,
  GraphMispStatus
>;
/** A row's status as the graph's enum; a row holds only the three (written through this module's rule). */
export const graphMispStatus = (spelled: string): GraphMispStatus => {
  const value = MISP_STATUS_OF_SPELLING[spelled as MispStatusSpelling];
  if (!value) throw new Error(`a MISP row holds the status ${spelled}`);
  return value;
};
const status = z.enum(['ACTIVE', 'APPROVED', 'REJECTED']).transform((value) => MISP_STATUS_SPELLING[value]);

/** The arguments of the MISP root fields, for GraphQL and REST alike. */
export const mispsSchemas = {
  createMisp: z.object({ organizationName: name, contactNumber: phone.nullish(), emailId: email, address }),
  decideMisp: z.object({ mispId: id, mispStatus: status }),
  setMispActive: z.object({ mispId: id, isActive: z.boolean() }),
  updateMisp: z.object({ mispId: id, organizationName: name.nullish(), contactNumber: phone.nullish(), emailId: email.nullish(), address: address.nullish() }),
  validateMispLicense: z.object({ mispId: id, mispLicenseKey: identifier(256) }),
  regenerateMispLicense: z.object({ mispId: id }),
  misp: z.object({ mispId: id }),
  mispsByName: z.object({ name }),
  mispLicense: z.object({ mispId: id }),
  misps: z.object({
    ...pageArguments(),
    filter: z.object({ status: status.nullish(), isActive: z.boolean().nullish(), nameContains: identifier(128).nullish() }).nullish(),
  }),
};
