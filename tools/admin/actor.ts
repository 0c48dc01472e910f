import { CommandRefusal, type AdminContext } from './command.js';

/** The admin account a command acts as, as a GraphQL resolver sees its caller. */
export interface Actor {
  subject: string;
  subjectType: 'user';
  roles: string[];
}

/**
 * The account of `--as` (default `admin`) as the caller of a GraphQL
 * operation: it must exist, be unlocked, and hold a role the operation's row
 * of the role table names. The services then apply their own rules to it
 * (a zonal admin's zones, the centres it reaches), and the rows it writes
 * name it, as they would name the admin of a portal.
 */
export async function actAs(context: AdminContext, operation: string): Promise<Actor> {
  const { ROLE_TABLE } = await import('../../gateway/components.js');
  const user = await context.deps.services.users.user(context.actor);
  if (!user) throw new CommandRefusal(`there is no user ${context.actor} to act as: name an admin account with --as`);
  if (user.isLocked) throw new CommandRefusal(`the account ${context.actor} is locked: name another admin account with --as`);
  const access = ROLE_TABLE[operation];
  if (!access) throw new Error(`${operation} has no row in the role table`);
  if (access.kind === 'roles' && !access.roles.some((role) => user.roles.includes(role))) {
    throw new CommandRefusal(`${context.actor} may not do this (${operation} asks for one of ${access.roles.join(', ')}): name another account with --as`);
  }
  return { subject: user.userId, subjectType: 'user', roles: user.roles };
}

/**
 * The arguments of a GraphQL root field checked by its component's input
 * rules (the same schemas the subgraph and REST apply), refused with the
 * same code and message.
 */
export async function checkedArguments<T = Record<string, unknown>>(component: string, field: string, args: Record<string, unknown>): Promise<T> {
  const { componentNamed } = await import('../../gateway/components.js');
  const { parseArguments } = await import('../../lib/graph/inputs.js');
  const inputs = componentNamed(component)?.inputs;
  if (!inputs) throw new Error(`component ${component} declares no inputs`);
  return parseArguments(inputs, field, args) as T;
}

/** The caller and the checked arguments of one operation (`Mutation.createUser` of `auth`). */
export async function operation<T = Record<string, unknown>>(
  context: AdminContext,
  component: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ actor: Actor; args: T }> {
  const actor = await actAs(context, name);
  return { actor, args: await checkedArguments<T>(component, name.slice(name.indexOf('.') + 1), args) };
}
