import type { PrismaClient } from '../../generated/prisma/client.js';
import { capped } from '../../lib/graph/capped.js';
import { ROLES, type Role } from '../../lib/roles.js';
import { instantOr, type Clock } from '../../lib/time.js';
import type { Principal } from '../../lib/tokens.js';
import type { UsersService } from '../auth/users-service.js';
import { CentreReach } from '../masterdata/centres/reach.js';
import { SYNC_ENTITIES, type EntityQuery } from './client-settings.js';
import type { ConfigMap } from '../../lib/global-configuration.js';

/** What GET /v1/syncdata/configs serves: the registration client's configuration and the platform's global one. */
export interface SyncConfiguration {
  registrationConfiguration: ConfigMap;
  globalConfiguration: ConfigMap;
}
import { syncdataErrors } from './errors.js';
import { encryptForMachine, machinePublicKey } from './machine-crypto.js';

export interface ConfigEntry {
  key: string;
  value: string;
}

export interface SyncRole {
  roleId: string;
  roleName: string;
  roleDescription: string;
}

export interface SyncUserDetail {
  userName: string;
  mail: string | null;
  mobile: string | null;
  langCode: string;
  /** the stored hash (scrypt with its parameters), for offline login; never a clear password */
  userPassword: string | null;
  name: string | null;
  roles: string[];
}

export interface SyncEntity {
  entityName: string;
  entityType: 'structured';
  /** the rows as a JSON array, encrypted for the machine */
  data: string;
}

export interface ClientSettings {
  lastSyncTime: Date;
  dataToSync: SyncEntity[];
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
 * The roles a registration client logs its operators in with (MOSIP's
 * REGISTRATION_OPERATOR is no role of this platform). userdetails sends the
 * password hash of an account only when these are all its roles: a hash
 * shipped to every machine of a centre is one an attacker may crack offline,
 * so it must open nothing but the registration client.
 */
export const REGISTRATION_CLIENT_ROLES: readonly Role[] = ['REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER'];

/** The most users a centre's offline login list holds (userdetails): a centre's staff, refused beyond rather than cut short. */
export const MAX_CENTRE_USERS = 1000;

const onlyRegistrationRoles = (roles: readonly string[]) =>
  roles.length > 0 && roles.every((role) => (REGISTRATION_CLIENT_ROLES as readonly string[]).includes(role));

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

/** A given lastUpdated as an instant (KER-SNC-100 otherwise); REST runs it on the wire's text before the graph takes it as a DateTime. */
export const lastUpdatedOf = (lastUpdated: string): Date => instantOr(lastUpdated, syncdataErrors.badLastUpdated);

/**
 * Sync data for registration clients: the configuration files, the roles,
 * a centre's users (with password hashes for offline login), and the
 * master data a machine needs, encrypted for that machine's TPM key.
 */
export class SyncDataService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly config: SyncConfiguration,
    private readonly users: () => UsersService,
    private readonly reach: CentreReach,
  ) {}

  /** The global configuration (platform.kernel.*): the ID number rules the ID repository follows are those registration clients get. */
  configs(): { registrationConfiguration: ConfigEntry[]; globalConfiguration: ConfigEntry[] } {
    return { registrationConfiguration: entries(this.config.registrationConfiguration), globalConfiguration: entries(this.config.globalConfiguration) };
  }

  roles(): SyncRole[] {
    return ROLES.map((role) => ({ roleId: role, roleName: role, roleDescription: ROLE_DESCRIPTIONS[role] }));
  }

  /**
   * A registration client's offline login list: the registration staff of a
   * live centre (unlocked accounts whose roles are all registration client
   * roles), never an account with other powers. Read by the centre's own
   * staff and the admins of its zone (KER-ATH-403 for the others).
   */
  async userDetails(caller: Pick<Principal, 'subject' | 'roles'>, regCenterId: string): Promise<SyncUserDetail[]> {
    const centre = await this.prisma.registrationCenter.findFirst({ where: { id: regCenterId, isDeleted: false }, select: { id: true } });
    if (!centre) throw syncdataErrors.centreNotFound(regCenterId);
    if (!CentreReach.reachesCentre(await this.reach.of(caller), regCenterId)) throw syncdataErrors.notYourCentre(regCenterId);
    const mappings = await capped(
      MAX_CENTRE_USERS,
      (take) => this.prisma.registrationCenterUser.findMany({ where: { regCenterId, isActive: true, isDeleted: false }, orderBy: { userId: 'asc' }, take }),
      () => syncdataErrors.listTooLong(`users mapped to centre ${regCenterId}`, MAX_CENTRE_USERS),
    );
    const users = await this.users().usersById(mappings.map((row) => row.userId));
    return mappings.flatMap((row) => {
      const user = users.get(row.userId);
      return user && !user.isLocked && onlyRegistrationRoles(user.roles)
        ? [
            {
              userName: user.userId,
              mail: user.mail,
              mobile: user.mobile,
              langCode: user.langCode,
              userPassword: user.passwordHash,
              name: user.name,
              // each registration client role once: REGISTRATION_CLIENT_ROLES.length at most
              roles: [...new Set(user.roles)],
            },
          ]
        : [];
    });
  }

  /** `lastupdated`: an instant in the past, or none (a full sync). */
  private since(lastUpdated: string | null | undefined, now: Date): Date | undefined {
    if (!lastUpdated) return undefined;
    const since = lastUpdatedOf(lastUpdated);
    if (since > now) throw syncdataErrors.futureLastUpdated();
    return since;
  }

  /** The machine of a key index (the SHA-256 thumbprint of its TPM key), its key, and its centre, when the caller reaches the machine. */
  private async machineOf(caller: Pick<Principal, 'subject' | 'roles'>, keyIndex: string, regCenterId: string | null | undefined) {
    const mapped = await this.prisma.machinePublicKey.findUnique({ where: { keyIndex: keyIndex.trim().toLowerCase() } });
    if (!mapped) throw syncdataErrors.machineNotFound();
    const rows = await this.prisma.machine.findMany({ where: { name: mapped.machineName, isDeleted: false }, orderBy: { langCode: 'asc' } });
    const machine = rows.find((row) => row.isActive);
    if (!machine) throw rows.length ? syncdataErrors.machineInactive() : syncdataErrors.machineNotFound();
    const centre = machine.regCenterId
      ? await this.prisma.registrationCenter.findFirst({ where: { id: machine.regCenterId, isDeleted: false }, orderBy: { langCode: 'asc' } })
      : null;
    if (!centre) throw syncdataErrors.centreNotFound(machine.regCenterId ?? undefined);
    // The settings hold the centre's staff and machines: for its own staff and the admins of its zone, whoever mapped the key.
    if (!CentreReach.reachesMachine(await this.reach.of(caller), machine)) throw syncdataErrors.notYourCentre(centre.id);
    // MOSIP's remap signal: the client asked for the centre it knew, the machine has moved since.
    if (regCenterId && regCenterId !== centre.id) throw syncdataErrors.centreChanged();
    return { machine, centre, publicKey: machinePublicKey(mapped.publicKey) };
  }

  /** MOSIP 1.2's client settings: one entry per entity with rows to send, each encrypted for the machine alone. */
  async clientSettings(
    caller: Pick<Principal, 'subject' | 'roles'>,
    keyIndex: string,
    lastUpdated?: string | null,
    regCenterId?: string | null,
  ): Promise<ClientSettings> {
    const now = this.clock.now();
    const since = this.since(lastUpdated, now);
    const { machine, centre, publicKey } = await this.machineOf(caller, keyIndex, regCenterId);
    const query: EntityQuery = { prisma: this.prisma, changed: since ? { changedAt: { gt: since, lte: now } } : { isDeleted: false }, centre, machine };
    const dataToSync: SyncEntity[] = [];
    for (const [entityName, rows] of SYNC_ENTITIES) {
      const found = await rows(query);
      if (found.length)
        dataToSync.push({ entityName, entityType: 'structured', data: encryptForMachine(publicKey, Buffer.from(JSON.stringify(found), 'utf8')) });
    }
    return { lastSyncTime: now, dataToSync };
  }

  /** Creates the sample country's registration staff that do not exist yet (through auth's users), without passwords. */
  async addSampleStaff(): Promise<string[]> {
    const users = this.users();
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
