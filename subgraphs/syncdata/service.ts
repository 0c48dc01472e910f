import type { PrismaClient } from '../../generated/prisma/client.js';
import { ROLES, type Role } from '../../lib/roles.js';
import { parseInstant, type Clock } from '../../lib/time.js';
import type { Principal } from '../../lib/tokens.js';
import type { UsersService } from '../auth/users-service.js';
import { SYNC_ENTITIES, type EntityQuery } from './client-settings.js';
import type { ConfigMap, SyncConfiguration } from './config-files.js';
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
};

/** Who may read any centre's users; the other registration roles read only their own centre's. */
const ANY_CENTRE: readonly string[] = ['GLOBAL_ADMIN', 'REGISTRATION_ADMIN'];

const entries = (map: ConfigMap): ConfigEntry[] => Object.entries(map).map(([key, value]) => ({ key, value }));

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
  ) {}

  /** The global configuration (platform.kernel.*): the ID number rules the ID repository follows are those registration clients get. */
  globalConfiguration(): Readonly<Record<string, string>> {
    return this.config.globalConfiguration;
  }

  configs(): { registrationConfiguration: ConfigEntry[]; globalConfiguration: ConfigEntry[] } {
    return { registrationConfiguration: entries(this.config.registrationConfiguration), globalConfiguration: entries(this.config.globalConfiguration) };
  }

  roles(): SyncRole[] {
    return ROLES.map((role) => ({ roleId: role, roleName: role, roleDescription: ROLE_DESCRIPTIONS[role] }));
  }

  /** The users mapped to a live centre. An officer or supervisor reads only the centre they are mapped to. */
  async userDetails(caller: Pick<Principal, 'subject' | 'roles'>, regCenterId: string): Promise<SyncUserDetail[]> {
    const centre = await this.prisma.registrationCenter.findFirst({ where: { id: regCenterId, isDeleted: false }, select: { id: true } });
    if (!centre) throw syncdataErrors.centreNotFound(regCenterId);
    const mappings = await this.prisma.registrationCenterUser.findMany({ where: { regCenterId, isDeleted: false }, orderBy: { userId: 'asc' } });
    if (!caller.roles.some((role) => ANY_CENTRE.includes(role)) && !mappings.some((row) => row.userId === caller.subject))
      throw syncdataErrors.notYourCentre(regCenterId);
    const users = await this.users().usersById(mappings.map((row) => row.userId));
    return mappings.flatMap((row) => {
      const user = users.get(row.userId);
      return user
        ? [
            {
              userName: user.userId,
              mail: user.mail,
              mobile: user.mobile,
              langCode: user.langCode,
              userPassword: user.passwordHash,
              name: user.name,
              roles: user.roles,
            },
          ]
        : [];
    });
  }

  /** `lastupdated`: an instant in the past, or none (a full sync). */
  private since(lastUpdated: string | null | undefined, now: Date): Date | undefined {
    if (!lastUpdated) return undefined;
    const since = parseInstant(lastUpdated);
    if (!since) throw syncdataErrors.badLastUpdated();
    if (since > now) throw syncdataErrors.futureLastUpdated();
    return since;
  }

  /** The machine of a key index (the SHA-256 thumbprint of its TPM key), its key, and its centre. */
  private async machineOf(keyIndex: string, regCenterId: string | null | undefined) {
    const mapped = await this.prisma.machinePublicKey.findUnique({ where: { keyIndex: keyIndex.trim().toLowerCase() } });
    if (!mapped) throw syncdataErrors.machineNotFound();
    const rows = await this.prisma.machine.findMany({ where: { name: mapped.machineName, isDeleted: false }, orderBy: { langCode: 'asc' } });
    const machine = rows.find((row) => row.isActive);
    if (!machine) throw rows.length ? syncdataErrors.machineInactive() : syncdataErrors.machineNotFound();
    const centre = machine.regCenterId
      ? await this.prisma.registrationCenter.findFirst({ where: { id: machine.regCenterId, isDeleted: false }, orderBy: { langCode: 'asc' } })
      : null;
    if (!centre) throw syncdataErrors.centreNotFound(machine.regCenterId ?? undefined);
    // MOSIP's remap signal: the client asked for the centre it knew, the machine has moved since.
    if (regCenterId && regCenterId !== centre.id) throw syncdataErrors.centreChanged();
    return { machine, centre, publicKey: machinePublicKey(mapped.publicKey) };
  }

  /** MOSIP 1.2's client settings: one entry per entity with rows to send, each encrypted for the machine alone. */
  async clientSettings(keyIndex: string, lastUpdated?: string | null, regCenterId?: string | null): Promise<ClientSettings> {
    const now = this.clock.now();
    const since = this.since(lastUpdated, now);
    const { machine, centre, publicKey } = await this.machineOf(keyIndex, regCenterId);
    const query: EntityQuery = { prisma: this.prisma, changed: since ? { changedAt: { gt: since, lte: now } } : { isDeleted: false }, centre, machine };
    const dataToSync: SyncEntity[] = [];
    for (const [entityName, rows] of SYNC_ENTITIES) {
      const found = await rows(query);
      if (found.length)
        dataToSync.push({ entityName, entityType: 'structured', data: encryptForMachine(publicKey, Buffer.from(JSON.stringify(found), 'utf8')) });
    }
    return { lastSyncTime: now, dataToSync };
  }
}
