import type { RequestContext } from '../../lib/context.js';
import { PlatformError } from '../../lib/errors.js';
import { decodeNodeId, encodeNodeId, nodeReference, type NodeDeclaration } from '../../lib/graph/nodes.js';
import type { Port } from '../../lib/port.js';
import { authorize, type AccessTable } from '../../lib/subgraph.js';

/**
 * Whether the subgraph that owns an entity finds it for this caller, through
 * its reference resolver (its role row and its scope): the gateway plugs it in,
 * as it alone reaches every subgraph, in-process or remote. A refusal there is thrown.
 */
export type EntityPresence = (home: string, representation: Record<string, unknown>, context: RequestContext) => Promise<boolean>;

/**
 * Global ids read back into the entities they name. The node door applies
 * the row each entity's `@node` mark names (its own lookup's rule) before the
 * gateway fetches the entity from its home subgraph, whose reference resolver
 * then applies the caller's scope: never a weaker rule than the entity's other doors.
 */
export class NodeLookup {
  constructor(
    private readonly declarations: ReadonlyMap<string, NodeDeclaration>,
    private readonly table: AccessTable,
    private readonly presence: Port<EntityPresence>,
  ) {}

  /** The global id of an entity the gateway names by its key. */
  idOf(type: string, reference: Record<string, unknown>): string {
    const declaration = this.declarations.get(type);
    if (!declaration) throw new Error(`${type} is not a Node`);
    return encodeNodeId(
      type,
      declaration.key.map(({ field }) => reference[field]),
    );
  }

  /**
   * The representation of the entity an id names, once the caller passes its
   * rule and its owner finds it for the caller; null for nothing, or for
   * something outside the caller's scope (the same answer: an id tells nothing).
   */
  async reference(context: RequestContext, id: string): Promise<Record<string, unknown> | null> {
    const decoded = decodeNodeId(id, this.declarations);
    if (!decoded) throw new PlatformError('BAD_USER_INPUT', 'id is not a global id this platform gave out', { field: ['id'] });
    const { declaration, values } = decoded;
    await authorize(this.table[declaration.access], `node(${declaration.type})`, context);
    const representation = nodeReference(declaration, values);
    return (await this.presence.get()(declaration.home, representation, context)) ? representation : null;
  }

  /** Each id's entity, in order (nodeInputs caps how many): a refusal nulls its own entry only. */
  references(context: RequestContext, ids: readonly string[]): Promise<Record<string, unknown> | null>[] {
    return ids.map((id) => this.reference(context, id));
  }
}
