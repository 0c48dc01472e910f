import { access } from '../../../lib/roles.js';
import { DEVICE_READERS, MASTERDATA_READERS, MASTERDATA_WRITERS } from '../access.js';
import { defineArea } from '../area.js';
import { LanguageStorage } from '../storage.js';
import { DeviceCatalogueService } from './catalogue.js';
import { devicesCodeFor, devicesSchemas } from './inputs.js';
import { devicesResolvers } from './resolvers.js';
import { DeviceService, type Caller } from './service.js';
import { CatalogueStorage } from './storage/catalogue.js';
import { DeviceStorage } from './storage/devices.js';
import { ZoneStorage } from './storage/zones.js';
import { ZoneService } from './zones.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** zones, the admins mapped to them, and a caller's scope */
    zones: ZoneService;
    /** device types and specifications */
    deviceCatalogue: DeviceCatalogueService;
    /** devices, each in a zone */
    devices: DeviceService;
  }
}

const devicesAccess = {
  'Query.device': DEVICE_READERS,
  'Query.devices': DEVICE_READERS,
  'Query.devicesByLanguage': DEVICE_READERS,
  'Query.devicesByType': DEVICE_READERS,
  'Query.searchDevices': DEVICE_READERS,
  'Query.deviceFilterValues': DEVICE_READERS,
  'Query.deviceTypes': MASTERDATA_READERS,
  'Query.deviceSpecifications': MASTERDATA_READERS,
  'Query.deviceSpecificationsByLanguage': MASTERDATA_READERS,
  'Query.deviceSpecificationsByType': MASTERDATA_READERS,
  'Query.zones': DEVICE_READERS,
  'Query.zoneHierarchy': DEVICE_READERS,
  'Query.leafZones': DEVICE_READERS,
  'Mutation.createDevice': MASTERDATA_WRITERS,
  'Mutation.updateDevice': MASTERDATA_WRITERS,
  'Mutation.decommissionDevice': MASTERDATA_WRITERS,
  'Mutation.deleteDevice': MASTERDATA_WRITERS,
  'Mutation.createDeviceType': MASTERDATA_WRITERS,
  'Mutation.updateDeviceType': MASTERDATA_WRITERS,
  'Mutation.createDeviceSpecification': MASTERDATA_WRITERS,
  'Mutation.updateDeviceSpecification': MASTERDATA_WRITERS,
  'Mutation.createZone': MASTERDATA_WRITERS,
  // Mapping admins to zones hands out scope: MOSIP's global admin only.
  'Mutation.mapZoneUser': access.ADMIN,
  'Mutation.unmapZoneUser': access.ADMIN,
  'Device.__resolveReference': DEVICE_READERS,
  'DeviceType.__resolveReference': MASTERDATA_READERS,
  'DeviceSpecification.__resolveReference': MASTERDATA_READERS,
  'Zone.__resolveReference': DEVICE_READERS,
  'User.zones': DEVICE_READERS,
};

/** Devices, device types and specifications, zones and the admins of each zone. */
export const devicesArea = defineArea({
  name: 'devices',
  access: devicesAccess,
  schemas: devicesSchemas,
  codeFor: devicesCodeFor,
  services: (deps) => {
    const languages = new LanguageStorage(deps.prisma);
    const userExists = async (userId: string) => (await deps.services.users.usersById([userId])).has(userId);
    const zones = new ZoneService(new ZoneStorage(deps.prisma), languages, deps.clock, userExists);
    const deviceCatalogue = new DeviceCatalogueService(new CatalogueStorage(deps.prisma), languages, deps.clock);
    // The centres area (built after this one) decides which centres a caller reaches: asked at call time.
    const requireCentreListed = async (caller: Caller, centreId: string) => {
      const { centreReach } = deps.services;
      await centreReach.requireListed(await centreReach.of(caller), centreId);
    };
    return {
      zones,
      deviceCatalogue,
      devices: new DeviceService(new DeviceStorage(deps.prisma), languages, deps.clock, zones, deviceCatalogue, requireCentreListed),
    };
  },
  resolvers: (deps) => devicesResolvers(deps.services),
});
