import { flag, listOption, option, PAGE_HELP, PAGE_PARSE, pageOf, positional, morePages, required } from './args.js';
import { actAs, operation } from './actor.js';
import { CommandRefusal, type AdminCommand, type AdminContext, type CommandIo } from './command.js';
import { table } from './io.js';
import { newPassword, PASSWORD_VARIABLE } from './secrets.js';

const join = (values: readonly string[]) => values.join(',') || '-';

export const usersList: AdminCommand = {
  path: ['users', 'list'],
  summary: 'list users with their roles and applications (as Query.users)',
  options: [
    '--role <role>        only users holding this role',
    '--app <appId>        only users of this application',
    '--zone <code>        only users placed in this zone or below it',
    '--centre <id>        only users mapped to this registration centre',
    '--name <text>        part of the name, any case',
    '--locked             only locked users',
    ...PAGE_HELP,
  ],
  parse: {
    role: { type: 'string' },
    app: { type: 'string' },
    zone: { type: 'string' },
    centre: { type: 'string' },
    name: { type: 'string' },
    locked: { type: 'boolean' },
    ...PAGE_PARSE,
  },
  async run(args, io, open) {
    const context = await open();
    const filter = {
      role: option(args, 'role'),
      appId: option(args, 'app'),
      zoneCode: option(args, 'zone'),
      regCenterId: option(args, 'centre'),
      name: option(args, 'name'),
      isLocked: flag(args, 'locked') ? true : undefined,
    };
    const checked = await operation<{ first: number; after: string | null; filter: typeof filter }>(context, 'auth', 'Query.users', {
      ...pageOf(args),
      filter,
    });
    const { users } = context.deps.services;
    const scope = await users.scopeOf(checked.actor);
    const page = await users.users(scope, checked.args, checked.args.filter);
    const rows = page.edges.map(({ node }) => ({
      userId: node.userId,
      name: node.name,
      roles: users.rolesOf(scope, node),
      appIds: node.appIds,
      isLocked: node.isLocked,
      hasPassword: node.passwordHash !== null,
    }));
    const total = await page.totalCount();
    for (const line of table(
      ['USER', 'NAME', 'ROLES', 'APPS', 'LOCKED'],
      rows.map((row) => [row.userId, row.name, join(row.roles), join(row.appIds), row.isLocked ? 'yes' : 'no']),
    )) {
      io.out(line);
    }
    io.out(morePages(page.pageInfo, total, rows.length));
    return { users: rows, totalCount: total, nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null };
  },
};

/** Checks the zone and centre options before anything is written: a user is not left half made by a refusal the options could show. */
async function checkPlaces(context: AdminContext, userId: string, zone: string | undefined, centre: string | undefined) {
  const actor = await actAs(context, 'Mutation.createUser');
  if (zone) {
    await operation(context, 'masterdata', 'Mutation.mapZoneUser', { userId, zoneCode: zone });
    if (!(await context.deps.services.zones.exists(zone))) throw new CommandRefusal(`there is no zone ${zone}: nothing was created`);
  }
  if (centre) await operation(context, 'masterdata', 'Mutation.mapUserToCentre', { userId, regCenterId: centre });
  return actor;
}

export const usersCreate: AdminCommand = {
  path: ['users', 'create'],
  summary: 'create a user, with roles, applications, a zone and a centre (as Mutation.createUser)',
  options: [
    '--username <id>      the login name (required)',
    '--role <role>        a role (repeat, or separate with commas)',
    '--app <appId>        an application the user logs in to (repeat, or commas); without one the user cannot log in',
    '--name <text>        the full name',
    '--mail <address>     the e-mail address',
    '--mobile <digits>    the phone number',
    '--lang <code>        the language, ISO 639-2 (default eng)',
    '--zone <code>        map the user to this zone (as Mutation.mapZoneUser)',
    '--centre <id>        map the user to this registration centre (as Mutation.mapUserToCentre)',
    `--no-password        no password (OTP logins only); else ${PASSWORD_VARIABLE} or a prompt on a terminal`,
  ],
  parse: {
    username: { type: 'string' },
    role: { type: 'string', multiple: true },
    app: { type: 'string', multiple: true },
    name: { type: 'string' },
    mail: { type: 'string' },
    mobile: { type: 'string' },
    lang: { type: 'string' },
    zone: { type: 'string' },
    centre: { type: 'string' },
    'no-password': { type: 'boolean' },
  },
  async run(args, io, open) {
    if (args.positionals.length) throw new CommandRefusal(`users create takes no ${args.positionals[0]}: name the user with --username`);
    const userId = required(args, 'username');
    const zone = option(args, 'zone');
    const centre = option(args, 'centre');
    const password = flag(args, 'no-password') ? undefined : await newPassword();
    if (password === undefined && !flag(args, 'no-password')) {
      throw new CommandRefusal(`no password: set ${PASSWORD_VARIABLE}, run on a terminal to be asked, or give --no-password`);
    }
    const context = await open();
    const input = {
      userId,
      name: option(args, 'name'),
      mail: option(args, 'mail'),
      mobile: option(args, 'mobile'),
      langCode: option(args, 'lang'),
      roles: listOption(args, 'role'),
      appIds: listOption(args, 'app'),
      password,
    };
    const { args: checked } = await operation<{ input: typeof input }>(context, 'auth', 'Mutation.createUser', { input });
    const actor = await checkPlaces(context, checked.input.userId, zone, centre);
    const { users, zones, centres } = context.deps.services;
    const user = await users.createUser(checked.input);
    const created = {
      userId: user.userId,
      roles: user.roles,
      appIds: user.appIds,
      hasPassword: user.passwordHash !== null,
      zone: null as string | null,
      centre: null as string | null,
    };
    io.out(
      `created user ${user.userId} (roles ${join(user.roles)}; applications ${join(user.appIds)}; ${created.hasPassword ? 'with a password' : 'no password'})`,
    );
    if (!user.appIds.length) io.out('the user logs in to no application until one is given: users roles --app');
    try {
      if (zone) created.zone = (await zones.mapUser(actor.subject, user.userId, zone)).zoneCode;
      if (zone) io.out(`mapped ${user.userId} to zone ${zone}`);
      if (centre) created.centre = (await centres.mapUser(actor.subject, user.userId, centre)).regCenterId;
      if (centre) io.out(`${user.userId} works at centre ${centre}`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new CommandRefusal(`user ${user.userId} was created, but not placed: ${reason}`);
    }
    return created;
  },
};

export const usersRoles: AdminCommand = {
  path: ['users', 'roles'],
  summary: "set a user's roles and applications (as Mutation.updateUser); its sessions end",
  options: [
    '<userId>             the user',
    '--role <role>        the roles the user holds from now on (repeat, or commas; "" for none)',
    '--app <appId>        the applications it logs in to from now on',
  ],
  parse: { role: { type: 'string', multiple: true }, app: { type: 'string', multiple: true } },
  async run(args, io, open) {
    const userId = positional(args, 'user');
    const roles = listOption(args, 'role');
    const appIds = listOption(args, 'app');
    const context = await open();
    if (!roles && !appIds) return showRoles(context, io, userId);
    const { args: checked } = await operation<{ userId: string; changes: { roles?: string[]; appIds?: string[] } }>(context, 'auth', 'Mutation.updateUser', {
      userId,
      changes: { roles, appIds },
    });
    const user = await context.deps.services.users.updateUser(checked.userId, checked.changes);
    io.out(`${user.userId}: roles ${join(user.roles)}; applications ${join(user.appIds)} (its sessions ended: the change applies at its next login)`);
    return { userId: user.userId, roles: user.roles, appIds: user.appIds };
  },
};

async function showRoles(context: AdminContext, io: CommandIo, userId: string) {
  const { args, actor } = await operation<{ userId: string }>(context, 'auth', 'Query.user', { userId });
  const { users } = context.deps.services;
  const user = await users.user(args.userId);
  if (!user) throw new CommandRefusal(`there is no user ${userId}`);
  const roles = users.rolesOf(await users.scopeOf(actor), user);
  io.out(`${user.userId}: roles ${join(roles)}; applications ${join(user.appIds)}`);
  return { userId: user.userId, roles, appIds: user.appIds };
}
