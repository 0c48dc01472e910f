import type { ConfigMap } from '../../lib/global-configuration.js';
import { ROLES, type Role } from '../../lib/roles.js';
import type { Principal } from '../../lib/tokens.js';
import { clientSettings, type ClientSettings } from './client-settings.js';
import type { SyncPorts } from './ports.js';
import { userDetails, type SyncUserDetail } from './user-details.js';

export { SYNC_ENTITIES, type ClientSettings, type SyncEntity } from './client-settings.js';
export { lastUpdatedOf } from './inputs.js';
export { MAX_CENTRE_USERS, REGISTRATION_CLIENT_ROLES, type SyncUserDetail } from './user-details.js';
export type { SyncPorts } from './ports.js';

/** What GET /v1/syncdata/configs serves: the registration client's configuration and the platform's global one. */
export interface SyncConfiguration {
  registrationConfiguration: ConfigMap;
  globalConfiguration: ConfigMap;
}

export interface ConfigEntry {
  key: string;
  value: string;
}

export interface SyncRole {
  roleId: string;
  roleName: string;
  roleDescription: string;
}

const ROLE_DESCRIPTIONS: Record<Role, string> = {
  GLOBAL_ADMIN: 'Administers the whole platform',
  ZONAL_ADMIN: 'Administers the master data of a zone',
  MASTERDATA_ADMIN: 'Maintains master data',
  KEY_MAKER: 'Manages keys and certificates',
  REGISTRATION_ADMIN: 'Administers registration centres and clients',
  REGISTRATION_SUPERVISOR: 'Supervises registrations at a centre',
  REGISTRATION_OFFICER: 'Registers individuals at a centre',
  REGISTRATION_PROCESSOR: 'Processes registration packets',
  PRE_REGISTRATION_ADMIN: 'Administers pre-registration',
  INDIVIDUAL: 'An individual using pre-registration',
  RESIDENT: 'A resident using resident services',
  ID_AUTHENTICATION: 'The ID authentication service',
  ID_REPOSITORY: 'The ID repository service',
  PARTNER_ADMIN: 'Administers partners',
  PARTNERMANAGER: 'Manages partners and their API keys',
  POLICYMANAGER: 'Manages partner policies',
  MISP: 'A MOSIP infrastructure service provider',
  PARTNER: 'A partner',
  ABIS: 'An automated biometric identification system (reads data shares and biometric files only)',
};

/**
 * The sample country's registration staff, mapped to centre 10001 by
 * masterdata's sample (17-registration-center-users.csv): created without a
 * password, so that none logs in until an admin sets one (resetPassword).
 */
export const SAMPLE_STAFF = [
  { userId: 'sample-officer', name: 'Sample registration officer', roles: ['REGISTRATION_OFFICER'] },
  { userId: 'sample-supervisor', name: 'Sample registration supervisor', roles: ['REGISTRATION_SUPERVISOR'] },
  { userId: 'sample-operator', name: 'Sample registration operator (officer and supervisor)', roles: ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR'] },
] as const;

const entries = (map: ConfigMap): ConfigEntry[] => Object.entries(map).map(([key, value]) => ({ key, value }));

/**
 * Sync data for registration clients: the configuration files, the roles,
 * a centre's users (with password hashes for offline login), and the
 * master data a machine needs, encrypted for that machine's TPM key.
 */
export class SyncDataService {
  constructor(
    private readonly config: SyncConfiguration,
    private readonly ports: SyncPorts,
  ) {}

  /** The global configuration (platform.kernel.*): the ID number rules the ID repository follows are those registration clients get. */
  configs(): { registrationConfiguration: ConfigEntry[]; globalConfiguration: ConfigEntry[] } {
    return { registrationConfiguration: entries(this.config.registrationConfiguration), globalConfiguration: entries(this.config.globalConfiguration) };
  }

  roles(): SyncRole[] {
    return ROLES.map((role) => ({ roleId: role, roleName: role, roleDescription: ROLE_DESCRIPTIONS[role] }));
  }

  /** A centre's offline login list (user-details.ts). */
  userDetails(caller: Pick<Principal, 'subject' | 'roles'>, regCenterId: string): Promise<SyncUserDetail[]> {
    return userDetails(this.ports, caller, regCenterId);
  }

  /** MOSIP 1.2's client settings for a machine, all or changed since lastUpdated (client-settings.ts). */
  clientSettings(
    caller: Pick<Principal, 'subject' | 'roles'>,
    keyIndex: string,
    lastUpdated?: string | null,
    regCenterId?: string | null,
  ): Promise<ClientSettings> {
    return clientSettings(this.ports, caller, keyIndex, lastUpdated, regCenterId);
  }

  /** Creates the sample country's registration staff that do not exist yet (through auth's users), without passwords. */
  async addSampleStaff(): Promise<string[]> {
    const users = this.ports.users;
    const existing = await users.usersById(SAMPLE_STAFF.map((staff) => staff.userId));
    const added: string[] = [];
    for (const staff of SAMPLE_STAFF) {
      if (existing.has(staff.userId)) continue;
      await users.createUser({ ...staff, roles: [...staff.roles], appIds: ['registrationclient'], password: null });
      added.push(staff.userId);
    }
    return added;
  }
}
