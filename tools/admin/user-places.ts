import { listOption, option, positional } from './args.js';
import { operation } from './actor.js';
import { CommandRefusal, type AdminCommand } from './command.js';

export const usersZones: AdminCommand = {
  path: ['users', 'zones'],
  summary: 'map a user to zones or unmap it (as Mutation.mapZoneUser); without options, list its zones',
  options: [
    '<userId>             the user',
    '--add <code>         map the user to this zone (repeat, or commas)',
    '--remove <code>      unmap it from this zone (repeat, or commas)',
  ],
  parse: { add: { type: 'string', multiple: true }, remove: { type: 'string', multiple: true } },
  async run(args, io, open) {
    const userId = positional(args, 'user');
    const add = listOption(args, 'add') ?? [];
    const remove = listOption(args, 'remove') ?? [];
    const context = await open();
    const { zones } = context.deps.services;
    for (const zoneCode of add) {
      const { actor, args: checked } = await operation<{ userId: string; zoneCode: string }>(context, 'masterdata', 'Mutation.mapZoneUser', {
        userId,
        zoneCode,
      });
      await zones.mapUser(actor.subject, checked.userId, checked.zoneCode);
      io.out(`mapped ${userId} to zone ${zoneCode}`);
    }
    for (const zoneCode of remove) {
      const { actor, args: checked } = await operation<{ userId: string; zoneCode: string }>(context, 'masterdata', 'Mutation.unmapZoneUser', {
        userId,
        zoneCode,
      });
      await zones.unmapUser(actor.subject, checked.userId, checked.zoneCode);
      io.out(`unmapped ${userId} from zone ${zoneCode}`);
    }
    // What the user's zones field shows the acting admin: those it covers.
    const { actor } = await operation(context, 'auth', 'Query.user', { userId });
    if (!(await context.deps.services.users.user(userId))) throw new CommandRefusal(`there is no user ${userId}`);
    const rows = (await zones.zonesOfUsers([userId], await zones.scopeOf(actor.subject))).get(userId) ?? [];
    const codes = [...new Set(rows.map((row) => row.code))];
    if (!add.length && !remove.length)
      io.out(codes.length ? `${userId} is mapped to ${codes.join(', ')}` : `${userId} is mapped to no zone ${actor.subject} covers`);
    return { userId, zones: codes, added: add, removed: remove };
  },
};

export const usersCentre: AdminCommand = {
  path: ['users', 'centre'],
  summary: 'set or remove the centre a user works at (as Mutation.mapUserToCentre); without options, show it',
  options: [
    '<userId>             the user',
    '--set <id>           the centre the user works at (one at a time: unmap the previous first)',
    '--remove <id>        unmap the user from this centre',
  ],
  parse: { set: { type: 'string' }, remove: { type: 'string' } },
  async run(args, io, open) {
    const userId = positional(args, 'user');
    const set = option(args, 'set');
    const remove = option(args, 'remove');
    const context = await open();
    const { centres, userPlaces, users } = context.deps.services;
    if (remove) {
      const { actor, args: checked } = await operation<{ userId: string; regCenterId: string }>(context, 'masterdata', 'Mutation.unmapUserFromCentre', {
        userId,
        regCenterId: remove,
      });
      await centres.unmapUser(actor.subject, checked.userId, checked.regCenterId);
      io.out(`unmapped ${userId} from centre ${remove}`);
    }
    if (set) {
      const { actor, args: checked } = await operation<{ userId: string; regCenterId: string }>(context, 'masterdata', 'Mutation.mapUserToCentre', {
        userId,
        regCenterId: set,
      });
      await centres.mapUser(actor.subject, checked.userId, checked.regCenterId);
      io.out(`${userId} works at centre ${set}`);
    }
    if (!set && !remove) {
      await operation(context, 'auth', 'Query.user', { userId });
      if (!(await users.user(userId))) throw new CommandRefusal(`there is no user ${userId}`);
    }
    const centre = (await userPlaces.centresOfUsers([userId])).get(userId) ?? null;
    if (!set && !remove) io.out(centre ? `${userId} works at centre ${centre}` : `${userId} works at no centre`);
    return { userId, centre };
  },
};
