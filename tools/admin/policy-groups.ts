import { flag, option, PAGE_HELP, PAGE_PARSE, pageOf, morePages, required } from './args.js';
import { operation } from './actor.js';
import { CommandRefusal, type AdminCommand } from './command.js';
import { table, when } from './io.js';

export const policyGroupsList: AdminCommand = {
  path: ['policy-groups', 'list'],
  summary: 'list policy groups (as Query.policyGroups)',
  options: ['--name <text>        part of the name', '--inactive           only deactivated groups', ...PAGE_HELP],
  parse: { name: { type: 'string' }, inactive: { type: 'boolean' }, ...PAGE_PARSE },
  async run(args, io, open) {
    const context = await open();
    const filter = { nameContains: option(args, 'name'), isActive: flag(args, 'inactive') ? false : undefined };
    const { actor, args: checked } = await operation<{ first: number; after: string | null; filter: typeof filter }>(context, 'partner', 'Query.policyGroups', {
      ...pageOf(args),
      filter,
    });
    const { policyGroups } = context.deps.services;
    const page = await policyGroups.list(await policyGroups.scopeOf(actor), checked, checked.filter);
    const rows = page.edges.map(({ node }) => ({
      id: node.id,
      name: node.name,
      description: node.description,
      isActive: node.isActive,
      createdBy: node.createdBy,
      createdAt: node.createdAt,
    }));
    const total = await page.totalCount();
    for (const line of table(
      ['ID', 'NAME', 'ACTIVE', 'CREATED', 'DESCRIPTION'],
      rows.map((row) => [row.id, row.name, row.isActive ? 'yes' : 'no', when(row.createdAt), row.description]),
    )) {
      io.out(line);
    }
    io.out(morePages(page.pageInfo, total, rows.length));
    return { policyGroups: rows, totalCount: total, nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null };
  },
};

export const policyGroupsCreate: AdminCommand = {
  path: ['policy-groups', 'create'],
  summary: 'create a policy group (as Mutation.createPolicyGroup)',
  options: ['--name <name>        the group name, unique (required)', '--desc <text>        a description'],
  parse: { name: { type: 'string' }, desc: { type: 'string' } },
  async run(args, io, open) {
    if (args.positionals.length) throw new CommandRefusal(`policy-groups create takes no ${args.positionals[0]}: name the group with --name`);
    const context = await open();
    const { actor, args: checked } = await operation<{ name: string; desc?: string | null }>(context, 'partner', 'Mutation.createPolicyGroup', {
      name: required(args, 'name'),
      desc: option(args, 'desc'),
    });
    const group = await context.deps.services.policyGroups.create(actor.subject, checked);
    io.out(`created policy group ${group.name} (${group.id})`);
    return { id: group.id, name: group.name, description: group.description, isActive: group.isActive };
  },
};
