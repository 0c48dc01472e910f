import type { Clock } from '../../lib/time.js';
import type { UsersService } from '../auth/users-service.js';
import type { KeysService } from '../keys/service.js';
import type { CentreReach } from '../masterdata/centres/reach.js';
import type { ClientPlaces, MasterdataChanges } from '../masterdata/changes/service.js';

/**
 * What sync data reads of the other components, each through its owner's
 * service (sync data owns no table): master data's rows and a client's place,
 * who the caller reaches, the machine keys the key manager maps, auth's users.
 * A test fills them with rows in memory.
 */
export interface SyncPorts {
  clock: Clock;
  /** master data's rows, all or changed since a sync, for a centre and machine */
  changes: Pick<MasterdataChanges, 'changedSince'>;
  /** a machine by name and its centre, whether a centre exists, its active staff */
  places: Pick<ClientPlaces, 'machineNamed' | 'centreExists' | 'activeStaff'>;
  /** the centres and machines a caller reaches */
  reach: Pick<CentreReach, 'of'>;
  /** the machine (and its key) a key index is mapped to */
  machineKeys: Pick<KeysService, 'machineKeyByIndex'>;
  /** auth's users */
  users: Pick<UsersService, 'usersById' | 'createUser'>;
}
