import { RESIDENT_SUBJECT, type Principal } from '../../lib/tokens.js';

/** Who calls the ID repository's services, as the areas read it. */
export type Caller = Pick<Principal, 'subject' | 'subjectType' | 'roles'>;

export { RESIDENT_SUBJECT } from '../../lib/tokens.js';

/** The identity a resident's token speaks for; undefined for any other caller (a user named like a UIN included). */
export function residentIdentityOf(caller: Caller): string | undefined {
  return caller.subjectType === RESIDENT_SUBJECT && caller.roles.includes('RESIDENT') ? caller.subject : undefined;
}
