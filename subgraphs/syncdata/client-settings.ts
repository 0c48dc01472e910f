import type { Principal } from '../../lib/tokens.js';
import { CentreReach } from '../masterdata/centres/reach.js';
import type { ChangeEntity } from '../masterdata/changes/service.js';
import { syncdataErrors } from './errors.js';
import { lastUpdatedOf } from './inputs.js';
import { encryptForMachine, machinePublicKey } from './machine-crypto.js';
import type { SyncPorts } from './ports.js';

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

/**
 * What a registration client needs to register offline, entity by entity
 * (MOSIP 1.2's client settings), in the order it is sent: the shared master
 * data, and of its own centre the centre, its days, devices, users and
 * holidays, and the machine itself. Read through master data's changes.
 */
export const SYNC_ENTITIES: readonly ChangeEntity[] = [
  'Language',
  'LocationHierarchy',
  'Location',
  'DocumentCategory',
  'DocumentType',
  'ValidDocument',
  'ApplicantValidDocument',
  'Holiday',
  'DeviceType',
  'DeviceSpecification',
  'Device',
  'RegistrationCenter',
  'RegistrationCenterWorkingDay',
  'Machine',
  'RegistrationCenterUser',
  'IdSchema',
];

type Caller = Pick<Principal, 'subject' | 'roles'>;

/** `lastupdated`: an instant in the past, or none (a full sync): null. */
export function sinceOf(lastUpdated: string | null | undefined, now: Date): Date | null {
  if (!lastUpdated) return null;
  const since = lastUpdatedOf(lastUpdated);
  if (since > now) throw syncdataErrors.futureLastUpdated();
  return since;
}

/**
 * The machine of a key index (the SHA-256 thumbprint of its TPM key), its
 * key, and its centre, when the caller reaches the machine. Checked in this
 * order: the key (KER-SNC-155), the machine (KER-SNC-155, inactive too), its
 * centre (KER-SNC-141), the caller's reach (KER-ATH-403), the centre the
 * client knew (KER-SNC-149).
 */
async function machineOf(ports: SyncPorts, caller: Caller, keyIndex: string, regCenterId: string | null | undefined) {
  const mapped = await ports.machineKeys.machineKeyByIndex(keyIndex);
  if (!mapped) throw syncdataErrors.machineNotFound();
  const { known, machine, centre } = await ports.places.machineNamed(mapped.machineName);
  if (!machine) throw known ? syncdataErrors.machineInactive() : syncdataErrors.machineNotFound();
  if (!centre) throw syncdataErrors.centreNotFound(machine.regCenterId ?? undefined);
  // The settings hold the centre's staff and machines: for its own staff and the admins of its zone, whoever mapped the key.
  if (!CentreReach.reachesMachine(await ports.reach.of(caller), machine)) throw syncdataErrors.notYourCentre(centre.id);
  // MOSIP's remap signal: the client asked for the centre it knew, the machine has moved since.
  if (regCenterId && regCenterId !== centre.id) throw syncdataErrors.centreChanged();
  return { machine, centre, publicKey: machinePublicKey(mapped.publicKey) };
}

/**
 * MOSIP 1.2's client settings: one entry per entity with rows to send, each
 * encrypted for the machine alone. Without lastUpdated every live row; with
 * it every row changed since, up to now (deletions included), and now is the
 * client's next lastUpdated. The timestamp is checked before the machine.
 */
export async function clientSettings(
  ports: SyncPorts,
  caller: Caller,
  keyIndex: string,
  lastUpdated?: string | null,
  regCenterId?: string | null,
): Promise<ClientSettings> {
  const now = ports.clock.now();
  const since = sinceOf(lastUpdated, now);
  const { machine, centre, publicKey } = await machineOf(ports, caller, keyIndex, regCenterId);
  const dataToSync: SyncEntity[] = [];
  for (const entityName of SYNC_ENTITIES) {
    const found = await ports.changes.changedSince(entityName, since, now, { centre, machine });
    if (found.length) dataToSync.push({ entityName, entityType: 'structured', data: encryptForMachine(publicKey, Buffer.from(JSON.stringify(found), 'utf8')) });
  }
  return { lastSyncTime: now, dataToSync };
}
