import type { Connection } from '../../../lib/graph/connection.js';
import type { LocationRow } from './locations-service.js';
import type { HolidayRow } from './service.js';

export type HolidayConnectionModel = Connection<HolidayRow>;
export type LocationConnectionModel = Connection<LocationRow>;

export const holidaysMappers = {
  Holiday: './holidays/service.js#HolidayRow',
  HolidayConnection: './holidays/graph-mappers.js#HolidayConnectionModel',
  Location: './holidays/locations-service.js#LocationRow',
  LocationConnection: './holidays/graph-mappers.js#LocationConnectionModel',
};
