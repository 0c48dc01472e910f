import type { RequestContext } from '../../../lib/context.js';
import { loader } from '../../../lib/graph/loader.js';
import type { PlatformServices } from '../../../lib/deps.js';
import type { Resolvers } from '../../../generated/graphql/masterdata.js';
import { pairKey } from '../keys.js';
import { orNull } from '../../../lib/graph/absent.js';
import { instantArgument } from '../../../lib/graph/scalars.js';
import type { ZoneScope } from './zones.js';

const callerOf = (context: RequestContext) => context.principal();
const by = async (context: RequestContext) => (await context.principal()).subject;
const userRef = (userId: string | null) => (userId ? { userId } : null);

type Services = Pick<PlatformServices, 'devices' | 'deviceCatalogue' | 'zones'>;

export function devicesResolvers({ devices, deviceCatalogue: catalogue, zones }: Services): Resolvers {
  // Per-request batch loaders: a page of rows costs one query per kind of reference.
  const deviceRef = (context: RequestContext) => loader(context, 'devices.device', async (keys: readonly string[]) => devices.byKeys(await by(context), keys));
  const specRef = (context: RequestContext) => loader(context, 'devices.spec', (keys: readonly string[]) => catalogue.specificationsByKeys(keys));
  const typeRef = (context: RequestContext) => loader(context, 'devices.type', (keys: readonly string[]) => catalogue.typesByKeys(keys));
  const zoneRef = (context: RequestContext) => loader(context, 'devices.zone', (keys: readonly string[]) => zones.byKeys(keys));
  /** The caller's zones, read once per request whichever users need them. */
  const scopeOf = (context: RequestContext): Promise<ZoneScope> => {
    let once = context.loaders.get('devices.scope') as (() => Promise<ZoneScope>) | undefined;
    if (!once) {
      const scope = by(context).then((userId) => zones.scopeOf(userId));
      once = () => scope;
      context.loaders.set('devices.scope', once);
    }
    return once();
  };
  const zonesOf = (context: RequestContext) =>
    loader(context, 'devices.userZones', async (ids: readonly string[]) => zones.zonesOfUsers(ids, await scopeOf(context)));
  return {
    Query: {
      device: async (_, args, context) => orNull(devices.get(await by(context), args.id, args.langCode), 'KER-MSD-010'),
      devices: async (_, args, context) => devices.list(await callerOf(context), args, args.filter),
      devicesByLanguage: async (_, args, context) => devices.byLanguage(await by(context), args.langCode),
      devicesByType: async (_, args, context) => devices.byLanguage(await by(context), args.langCode, args.deviceType),
      searchDevices: async (_, args, context) => devices.search(await by(context), args.input),
      deviceFilterValues: async (_, args, context) => devices.filterValues(await by(context), args.input),
      deviceTypes: (_, args) => catalogue.listTypes(args, args.filter),
      deviceSpecifications: (_, args) => catalogue.listSpecifications(args, args.filter),
      deviceSpecificationsByLanguage: (_, args) => catalogue.specifications(args.langCode),
      deviceSpecificationsByType: (_, args) => catalogue.specifications(args.langCode, args.deviceTypeCode),
      zones: async (_, args, context) => zones.list(await by(context), args, args.filter),
      zoneHierarchy: async (_, args, context) => zones.hierarchy(await by(context), args.langCode),
      leafZones: async (_, args, context) => zones.leafs(await by(context), args.langCode),
    },
    Mutation: {
      createDevice: async (_, args, context) =>
        devices.create(await by(context), { ...args.input, validityDateTime: instantArgument(args.input.validityDateTime) }),
      updateDevice: async (_, args, context) =>
        devices.update(await by(context), { ...args.input, validityDateTime: instantArgument(args.input.validityDateTime) }),
      decommissionDevice: async (_, args, context) => devices.decommission(await by(context), args.id),
      deleteDevice: async (_, args, context) => devices.delete(await by(context), args.id),
      createDeviceType: async (_, args, context) => catalogue.createType(await by(context), args.input),
      updateDeviceType: async (_, args, context) => catalogue.updateType(await by(context), args.input),
      createDeviceSpecification: async (_, args, context) => catalogue.createSpecification(await by(context), args.input),
      updateDeviceSpecification: async (_, args, context) => catalogue.updateSpecification(await by(context), args.input),
      createZone: async (_, args, context) => zones.create(await callerOf(context), args.input),
      mapZoneUser: async (_, args, context) => zones.mapUser(await by(context), args.userId, args.zoneCode),
      unmapZoneUser: async (_, args, context) => zones.unmapUser(await by(context), args.userId, args.zoneCode),
    },
    Device: {
      __resolveReference: (ref, context) => deviceRef(context)(pairKey(ref.id, ref.langCode)),
      specification: (row, _, context) => specRef(context)(pairKey(row.deviceSpecId, row.langCode)),
      zone: (row, _, context) => zoneRef(context)(pairKey(row.zoneCode, row.langCode)),
      createdBy: (row) => userRef(row.createdBy),
      updatedBy: (row) => userRef(row.updatedBy),
    },
    DeviceType: {
      __resolveReference: (ref, context) => typeRef(context)(pairKey(ref.code, ref.langCode)),
      createdBy: (row) => userRef(row.createdBy),
      updatedBy: (row) => userRef(row.updatedBy),
    },
    DeviceSpecification: {
      __resolveReference: (ref, context) => specRef(context)(pairKey(ref.id, ref.langCode)),
      deviceType: (row, _, context) => typeRef(context)(pairKey(row.deviceTypeCode, row.langCode)),
      createdBy: (row) => userRef(row.createdBy),
      updatedBy: (row) => userRef(row.updatedBy),
    },
    Zone: {
      __resolveReference: (ref, context) => zoneRef(context)(pairKey(ref.code, ref.langCode)),
      parent: (row, _, context) => (row.parentZoneCode ? zoneRef(context)(pairKey(row.parentZoneCode, row.langCode)) : null),
      createdBy: (row) => userRef(row.createdBy),
    },
    ZoneUser: {
      createdBy: (row) => userRef(row.createdBy),
      updatedBy: (row) => userRef(row.updatedBy),
    },
    User: {
      zones: async (user, args, context) => {
        const rows = (await zonesOf(context)(user.userId)) ?? [];
        return args.langCode ? rows.filter((zone) => zone.langCode === args.langCode) : rows;
      },
    },
  };
}
