import type { Connection } from '../../../lib/graph/connection.js';
import type { SearchPage } from '../search.js';
import type { DeviceSpecificationRow, DeviceTypeRow } from './storage/catalogue.js';
import type { DeviceRow } from './storage/devices.js';
import type { ZoneRow } from './storage/zones.js';

export type DeviceConnectionModel = Connection<DeviceRow>;
export type DeviceTypeConnectionModel = Connection<DeviceTypeRow>;
export type DeviceSpecificationConnectionModel = Connection<DeviceSpecificationRow>;
export type ZoneConnectionModel = Connection<ZoneRow>;
export type DeviceSearchPageModel = SearchPage<DeviceRow>;

/** GraphQL type → the value its resolvers receive as parent (paths from subgraphs/masterdata/). */
export const devicesMappers = {
  Device: './devices/storage/devices.js#DeviceRow',
  DeviceType: './devices/storage/catalogue.js#DeviceTypeRow',
  DeviceSpecification: './devices/storage/catalogue.js#DeviceSpecificationRow',
  Zone: './devices/storage/zones.js#ZoneRow',
  ZoneUser: './devices/storage/zones.js#ZoneUserRow',
  DeviceConnection: './devices/graph-mappers.js#DeviceConnectionModel',
  DeviceTypeConnection: './devices/graph-mappers.js#DeviceTypeConnectionModel',
  DeviceSpecificationConnection: './devices/graph-mappers.js#DeviceSpecificationConnectionModel',
  ZoneConnection: './devices/graph-mappers.js#ZoneConnectionModel',
  DeviceSearchPage: './devices/graph-mappers.js#DeviceSearchPageModel',
};
