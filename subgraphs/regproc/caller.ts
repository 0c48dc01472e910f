/** The registration processor itself, as the ID repository records who wrote or read an identity. */
export const PROCESSOR = { subject: 'registration-processor', subjectType: 'client' as const, roles: ['REGISTRATION_PROCESSOR' as const] };
