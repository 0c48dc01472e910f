import { clientsCreate, clientsList, clientsRoles } from './clients.js';
import type { AdminCommand } from './command.js';
import { dbStatus } from './db.js';
import { jobsDead, jobsDrop, jobsRetry } from './jobs.js';
import { keysList, keysRewrap, keysRotate, keysRotateSigning } from './keys.js';
import { masterdataImport } from './masterdata.js';
import { policyGroupsCreate, policyGroupsList } from './policy-groups.js';
import { registrationsResume, registrationsStuck } from './registrations.js';
import { usersCentre, usersZones } from './user-places.js';
import { usersCreate, usersList, usersRoles } from './users.js';

/** Every command of `npm run platform`, in the order the top-level --help lists them. */
export const COMMANDS: readonly AdminCommand[] = [
  usersList,
  usersCreate,
  usersRoles,
  usersZones,
  usersCentre,
  clientsList,
  clientsCreate,
  clientsRoles,
  policyGroupsList,
  policyGroupsCreate,
  registrationsStuck,
  registrationsResume,
  jobsDead,
  jobsRetry,
  jobsDrop,
  masterdataImport,
  keysList,
  keysRotate,
  keysRotateSigning,
  keysRewrap,
  dbStatus,
];
