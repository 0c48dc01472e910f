import { flag, listOption, option, PAGE_HELP, PAGE_PARSE, pageOf, positional, morePages, required } from './args.js';
import { operation } from './actor.js';
import { CommandRefusal, type AdminCommand } from './command.js';
import { table } from './io.js';
import { CLIENT_SECRET_VARIABLE, givenClientSecret } from './secrets.js';

const join = (values: readonly string[]) => values.join(',') || '-';

export const clientsList: AdminCommand = {
  path: ['clients', 'list'],
  summary: 'list clients with their roles and applications (as Query.clients)',
  options: [
    '--role <role>        only clients holding this role',
    '--app <appId>        only clients of this application',
    '--inactive           only deactivated clients',
    ...PAGE_HELP,
  ],
  parse: { role: { type: 'string' }, app: { type: 'string' }, inactive: { type: 'boolean' }, ...PAGE_PARSE },
  async run(args, io, open) {
    const context = await open();
    const filter = { role: option(args, 'role'), appId: option(args, 'app'), isActive: flag(args, 'inactive') ? false : undefined };
    const { args: checked } = await operation<{ first: number; after: string | null; filter: typeof filter }>(context, 'auth', 'Query.clients', {
      ...pageOf(args),
      filter,
    });
    const page = await context.deps.services.users.clients(checked, checked.filter);
    const rows = page.edges.map(({ node }) => ({
      clientId: node.clientId,
      roles: node.roles,
      appIds: node.appIds,
      isActive: node.isActive,
      createdAt: node.createdAt,
    }));
    const total = await page.totalCount();
    for (const line of table(
      ['CLIENT', 'ROLES', 'APPS', 'ACTIVE'],
      rows.map((row) => [row.clientId, join(row.roles), join(row.appIds), row.isActive ? 'yes' : 'no']),
    )) {
      io.out(line);
    }
    io.out(morePages(page.pageInfo, total, rows.length));
    return { clients: rows, totalCount: total, nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null };
  },
};

export const clientsCreate: AdminCommand = {
  path: ['clients', 'create'],
  summary: 'create a client; its secret is printed once (as Mutation.createClient)',
  options: [
    '--client-id <id>     the client id (required)',
    '--role <role>        a role (repeat, or commas)',
    '--app <appId>        an application it logs in to (repeat, or commas)',
    '--inactive           created deactivated',
    `the secret: generated and printed once, or ${CLIENT_SECRET_VARIABLE} (at least 32 characters; then not printed)`,
  ],
  parse: { 'client-id': { type: 'string' }, role: { type: 'string', multiple: true }, app: { type: 'string', multiple: true }, inactive: { type: 'boolean' } },
  async run(args, io, open) {
    if (args.positionals.length) throw new CommandRefusal(`clients create takes no ${args.positionals[0]}: name the client with --client-id`);
    const given = givenClientSecret();
    const context = await open();
    const input = {
      clientId: required(args, 'client-id'),
      roles: listOption(args, 'role'),
      appIds: listOption(args, 'app'),
      isActive: !flag(args, 'inactive'),
    };
    const { args: checked } = await operation<{ input: typeof input }>(context, 'auth', 'Mutation.createClient', { input });
    const created = await context.deps.services.users.createClient(checked.input, given);
    if (given) {
      io.out(`created client ${created.clientId} with the secret of ${CLIENT_SECRET_VARIABLE}`);
      return { clientId: created.clientId, roles: input.roles ?? [], appIds: input.appIds ?? [], secretKey: null };
    }
    io.out(`created client ${created.clientId}`);
    io.out(`its secret, shown this once: ${created.secretKey}`);
    return { clientId: created.clientId, roles: input.roles ?? [], appIds: input.appIds ?? [], secretKey: created.secretKey };
  },
};

export const clientsRoles: AdminCommand = {
  path: ['clients', 'roles'],
  summary: "set a client's roles and applications (as Mutation.updateClient); its sessions end",
  options: [
    '<clientId>           the client',
    '--role <role>        the roles it holds from now on (repeat, or commas; "" for none)',
    '--app <appId>        the applications it logs in to from now on',
  ],
  parse: { role: { type: 'string', multiple: true }, app: { type: 'string', multiple: true } },
  async run(args, io, open) {
    const clientId = positional(args, 'client');
    const roles = listOption(args, 'role');
    const appIds = listOption(args, 'app');
    const context = await open();
    const { users } = context.deps.services;
    if (!roles && !appIds) {
      const { args: checked } = await operation<{ clientId: string }>(context, 'auth', 'Query.client', { clientId });
      const client = (await users.clientsById([checked.clientId])).get(checked.clientId);
      if (!client) throw new CommandRefusal(`there is no client ${clientId}`);
      io.out(`${client.clientId}: roles ${join(client.roles)}; applications ${join(client.appIds)}`);
      return { clientId: client.clientId, roles: client.roles, appIds: client.appIds };
    }
    const { args: checked } = await operation<{ clientId: string; changes: { roles?: string[]; appIds?: string[] } }>(
      context,
      'auth',
      'Mutation.updateClient',
      {
        clientId,
        changes: { roles, appIds },
      },
    );
    const client = await users.updateClient(checked.clientId, checked.changes);
    io.out(`${client.clientId}: roles ${join(client.roles)}; applications ${join(client.appIds)} (its sessions ended: the change applies at its next login)`);
    return { clientId: client.clientId, roles: client.roles, appIds: client.appIds };
  },
};
