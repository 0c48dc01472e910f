import type { Connection } from '../../../lib/graph/connection.js';
import type { SearchPage } from '../search.js';
import type { DeviceSpecificationRow, DeviceTypeRow } from './catalogue.js';
import type { DeviceRow } from './service.js';
import type { ZoneRow } from './zones.js';

export type DeviceConnectionModel = Connection<DeviceRow>;
export type DeviceTypeConnectionModel = Connection<DeviceTypeRow>;
export type DeviceSpecificationConnectionModel = Connection<DeviceSpecificationRow>;
export type ZoneConnectionModel = Connection<ZoneRow>;
export type DeviceSearchPageModel = SearchPage<DeviceRow>;

/** GraphQL type → the value its resolvers receive as parent (paths from subgraphs/masterdata/). */
export const devicesMappers = {
  Device: './devices/service.js#DeviceRow',
  DeviceType: './devices/catalogue.js#DeviceTypeRow',
  DeviceSpecification: './devices/catalogue.js#DeviceSpecificationRow',
  Zone: './devices/zones.js#ZoneRow',
  ZoneUser: './devices/zones.js#ZoneUserRow',
  DeviceConnection: './devices/graph-mappers.js#DeviceConnectionModel',
  DeviceTypeConnection: './devices/graph-mappers.js#DeviceTypeConnectionModel',
  DeviceSpecificationConnection: './devices/graph-mappers.js#DeviceSpecificationConnectionModel',
  ZoneConnection: './devices/graph-mappers.js#ZoneConnectionModel',
  DeviceSearchPage: './devices/graph-mappers.js#DeviceSearchPageModel',
};
