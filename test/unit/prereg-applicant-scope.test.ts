// Applicants (role INDIVIDUAL, signed in by OTP to pre-registration) are residents: their tokens
// reach their own applications, the reference data the portal shows (centres, locations, holidays,
// document types, the ID schema, public certificates) and their own session; nothing of the staff's.
// The registry's role tables are read whole: a new door open to INDIVIDUAL fails here until it is
// looked at and listed.
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../../gateway/components.js';
import type { Access } from '../../lib/roles.js';

/** The fields an applicant's token opens, by component, and why each is theirs to open. */
const OPEN_TO_APPLICANTS: Record<string, (field: string) => boolean> = {
  // their applications, documents and appointments: the services keep each to its applicant
  prereg: () => true,
  // reference data the portal shows: read-only queries and entity look-ups
  masterdata: (field) => !field.startsWith('Mutation.'),
  // the platform's public certificates and signature checks
  keys: (field) => ['Query.certificate', 'Query.syncPublicKey', 'Mutation.validateSignature', 'Certificate.__resolveReference'].includes(field),
  // their own session: who they are, their password (none), sign-out
  auth: (field) =>
    field.startsWith('Viewer.') || ['Query.viewer', 'Mutation.changePassword', 'User.__resolveReference', 'Client.__resolveReference'].includes(field),
  // a partner's own record under Viewer: null for anyone who is not a partner
  partner: (field) => field.startsWith('Viewer.'),
  // global ids: open to any signed-in caller, each id then held to its entity's own rule and scope
  node: () => true,
  // the license permissions' names
  license: (field) => field === 'Query.licensePermissionValues',
};

const opensTo = (access: Access, role: string) => access.kind === 'authenticated' || (access.kind === 'roles' && access.roles.includes(role as never));

describe("an applicant's token", () => {
  it('opens only their own pre-registration, reference data and their own session', () => {
    const opened: string[] = [];
    for (const { component } of REGISTRY)
      for (const [field, access] of Object.entries(component.access as Record<string, Access>))
        if (opensTo(access, 'INDIVIDUAL') && !OPEN_TO_APPLICANTS[component.name]?.(field)) opened.push(`${component.name} ${field}`);
    expect(opened).toEqual([]);
  });

  it('opens no mutation of another component but their session and a signature check', () => {
    const mutations = REGISTRY.flatMap(({ component }) =>
      Object.entries(component.access as Record<string, Access>)
        .filter(([field, access]) => field.startsWith('Mutation.') && component.name !== 'prereg' && opensTo(access, 'INDIVIDUAL'))
        .map(([field]) => field),
    );
    expect(mutations.sort()).toEqual(['Mutation.changePassword', 'Mutation.validateSignature']);
  });
});
