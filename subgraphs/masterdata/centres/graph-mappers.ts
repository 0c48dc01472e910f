import type { Connection } from '../../../lib/graph/connection.js';
import type { MachineRow } from './machines.js';
import type { CentreRow, CentreUserRow } from './service.js';

export type RegistrationCentreConnectionModel = Connection<CentreRow>;
export type MachineConnectionModel = Connection<MachineRow>;
export type RegistrationCentreUserConnectionModel = Connection<CentreUserRow>;

export const centresMappers = {
  RegistrationCentre: './centres/service.js#CentreRow',
  RegistrationCentreUser: './centres/service.js#CentreUserRow',
  RegistrationCentreWorkingDay: './centres/service.js#WorkingDay',
  Machine: './centres/machines.js#MachineRow',
  RegistrationCentreConnection: './centres/graph-mappers.js#RegistrationCentreConnectionModel',
  MachineConnection: './centres/graph-mappers.js#MachineConnectionModel',
  RegistrationCentreUserConnection: './centres/graph-mappers.js#RegistrationCentreUserConnectionModel',
};
