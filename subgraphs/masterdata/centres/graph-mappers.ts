import type { Connection } from '../../../lib/graph/connection.js';
import type { CentreUserRow } from './storage/centre-users.js';
import type { CentreRow } from './storage/centres.js';
import type { MachineRow } from './storage/machines.js';

export type RegistrationCentreConnectionModel = Connection<CentreRow>;
export type MachineConnectionModel = Connection<MachineRow>;
export type RegistrationCentreUserConnectionModel = Connection<CentreUserRow>;

export const centresMappers = {
  RegistrationCentre: './centres/storage/centres.js#CentreRow',
  RegistrationCentreUser: './centres/storage/centre-users.js#CentreUserRow',
  RegistrationCentreWorkingDay: './centres/working-days.js#WorkingDay',
  Machine: './centres/storage/machines.js#MachineRow',
  RegistrationCentreConnection: './centres/graph-mappers.js#RegistrationCentreConnectionModel',
  MachineConnection: './centres/graph-mappers.js#MachineConnectionModel',
  RegistrationCentreUserConnection: './centres/graph-mappers.js#RegistrationCentreUserConnectionModel',
};
