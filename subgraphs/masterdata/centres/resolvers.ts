import type { RequestContext } from '../../../lib/context.js';
import type { PlatformServices } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import { nestedConnection } from '../../../lib/graph/nested.js';
import type { Resolvers } from '../../../generated/graphql/masterdata.js';
import { pairKey } from '../keys.js';
import type { Reach } from './reach.js';
import { UserPlaces } from './user-places.js';
import { orNull } from '../../../lib/graph/absent.js';
import { instantArgument } from '../../../lib/graph/scalars.js';
import { CENTRE_FILTER_NAMES, olderNames } from '../../../lib/graph/filters.js';

const by = async (context: RequestContext) => (await context.principal()).subject;
const userRef = (userId: string | null) => (userId ? { userId } : null);
/** A machine's input with its validity as the text the service takes. */
const machineOf = <T extends { validityDateTime?: Date | string | null }>(input: T) => ({
  ...input,
  validityDateTime: instantArgument(input.validityDateTime),
});

type Services = Pick<PlatformServices, 'centres' | 'machines' | 'centreReach' | 'locations' | 'zones' | 'userPlaces'>;

export function centresResolvers({ centres, machines, centreReach, locations, zones, userPlaces }: Services): Resolvers {
  /** The caller's reach, read once per request whichever fields need it. */
  const reachOf = (context: RequestContext): Promise<Reach> => {
    let once = context.loaders.get('masterdata.reach') as (() => Promise<Reach>) | undefined;
    if (!once) {
      const reach = context.principal().then((principal) => centreReach.of(principal));
      once = () => reach;
      context.loaders.set('masterdata.reach', once);
    }
    return once();
  };
  const centreRef = (context: RequestContext) => loader(context, 'masterdata.centre', (keys: readonly string[]) => centres.byKeys(keys));
  const machineRef = (context: RequestContext) =>
    loader(context, 'masterdata.machine', async (keys: readonly string[]) => machines.byKeys(await reachOf(context), keys));
  const days = (context: RequestContext) => loader(context, 'masterdata.centreDays', (keys: readonly string[]) => centres.workingDaysOfMany(keys));
  const centreOfUser = (context: RequestContext) => loader(context, 'masterdata.userCentre', (ids: readonly string[]) => userPlaces.centresOfUsers(ids));
  const userCount = (context: RequestContext) => loader(context, 'masterdata.centreUsers', (ids: readonly string[]) => centres.userCounts(ids));
  // The names (and batch functions) the holidays and devices areas load locations and zones by: one query for both.
  const locationRef = (context: RequestContext) => loader(context, 'masterdata.location', (keys: readonly string[]) => locations.byKeys(keys));
  const zoneRef = (context: RequestContext) => loader(context, 'devices.zone', (keys: readonly string[]) => zones.byKeys(keys));
  return {
    Query: {
      registrationCentre: (_, args) => orNull(centres.get(args.id, args.langCode), 'KER-MSD-215'),
      registrationCentresOfLanguage: (_, args) => centres.ofLanguage(args.langCode),
      registrationCentreWorkingDays: (_, args) => centres.workingDays(args.id, args.langCode),
      registrationCentres: (_, args) => centres.list(args, args.filter),
      machine: async (_, args, context) => orNull(machines.get(await reachOf(context), args.id, args.langCode), 'KER-MSD-030'),
      machinesOfLanguage: async (_, args, context) => machines.ofLanguage(await reachOf(context), args.langCode),
      machines: async (_, args, context) => machines.list(await reachOf(context), args, args.filter),
    },
    Mutation: {
      createRegistrationCentre: async (_, args, context) => centres.create(await by(context), args.input),
      updateRegistrationCentre: async (_, args, context) => centres.update(await by(context), { ...args.input, id: args.input.id ?? '' }),
      deleteRegistrationCentre: async (_, args, context) => centres.delete(await by(context), args.id),
      createMachine: async (_, args, context) => machines.create(await by(context), machineOf(args.input)),
      updateMachine: async (_, args, context) => machines.update(await by(context), { ...machineOf(args.input), id: args.input.id ?? '' }),
      deleteMachine: async (_, args, context) => machines.delete(await by(context), args.id),
      mapUserToCentre: async (_, args, context) => centres.mapUser(await by(context), args.userId, args.regCenterId),
      unmapUserFromCentre: async (_, args, context) => centres.unmapUser(await by(context), args.userId, args.regCenterId),
    },
    RegistrationCentre: {
      __resolveReference: (ref, context) => centreRef(context)(pairKey(ref.id, ref.langCode)),
      workingDays: async (row, _, context) => (await days(context)(pairKey(row.id, row.langCode))) ?? [],
      userCount: async (row, _, context) => {
        centres.requireReach(await reachOf(context), row.id);
        return (await userCount(context)(row.id)) ?? 0;
      },
      location: (row, _, context) => locationRef(context)(pairKey(row.locationCode, row.langCode)),
      zone: (row, _, context) => zoneRef(context)(pairKey(row.zoneCode, row.langCode)),
      // Lists under a page of centres: one window query and one count for the page (nestedConnection), in the centre's language.
      users: async (row, args, context) =>
        nestedConnection(context, 'masterdata.centreUserList', args, row.id, centres.usersOf(await reachOf(context), row.id)),
      machines: async (row, args, context) =>
        nestedConnection(
          context,
          'masterdata.centreMachines',
          { ...args, langCode: row.langCode },
          row.id,
          centres.machinesOf(await reachOf(context), row, olderNames(args.filter, CENTRE_FILTER_NAMES)),
        ),
      devices: async (row, args, context) =>
        nestedConnection(
          context,
          'masterdata.centreDevices',
          { ...args, langCode: row.langCode },
          row.id,
          centres.devicesOf(await reachOf(context), await by(context), row, olderNames(args.filter, CENTRE_FILTER_NAMES)),
        ),
      holidays: (row, args, context) =>
        nestedConnection(
          context,
          'masterdata.centreHolidays',
          { ...args, langCode: row.langCode },
          row.holidayLocationCode,
          centres.holidaysOf(row, args.filter),
        ),
      createdBy: (row) => userRef(row.createdBy),
      updatedBy: (row) => userRef(row.updatedBy),
    },
    User: {
      // A page of users costs one query for their centres and one for the centres' rows, whatever its size.
      registrationCentre: async (user, args, context) => {
        const [centreId, reach] = await Promise.all([centreOfUser(context)(user.userId), reachOf(context)]);
        const seen = UserPlaces.centreSeenBy(reach, centreId);
        // No language, or one the centre lacks: its row in another language (centres.byKeys).
        return seen === null ? null : centreRef(context)(pairKey(seen, args.langCode ?? ''));
      },
    },
    RegistrationCentreUser: {
      user: (row) => ({ userId: row.userId }),
      createdBy: (row) => userRef(row.createdBy),
    },
    Machine: {
      __resolveReference: (ref, context) => machineRef(context)(pairKey(ref.id, ref.langCode)),
      centre: (row, _, context) => (row.regCenterId ? centreRef(context)(pairKey(row.regCenterId, row.langCode)) : null),
      createdBy: (row) => userRef(row.createdBy),
      updatedBy: (row) => userRef(row.updatedBy),
    },
  };
}
