import { Port } from '../../lib/port.js';
import { access } from '../../lib/roles.js';
import { declaredNodes } from '../../lib/subgraph.js';
import { defineComponent } from '../component.js';
import { nodeInputs } from './inputs.js';
import { nodeResolvers } from './resolvers.js';
import { NodeLookup, type EntityPresence } from './service.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** where the gateway plugs in its look at an entity's owning subgraph (NodeLookup) */
    entityPresencePort: Port<EntityPresence>;
  }
}

/**
 * Global object identification: `node(id:)` and `nodes(ids:)` over every
 * entity a subgraph marks `@node` (lib/graph/nodes.ts). Its SDL,
 * schema/node.graphql, is written by `npm run compose` from those marks.
 */
export const node = defineComponent({
  name: 'node',
  inGateway: true,
  // Any signed-in caller may ask; each entity's own rule is applied per id (NodeLookup).
  access: { 'Query.node': access.AUTHENTICATED, 'Query.nodes': access.AUTHENTICATED },
  inputs: nodeInputs,
  services: () => ({ entityPresencePort: new Port<EntityPresence>("the gateway's look at an entity's owner") }),
  resolvers: (deps) => {
    const declarations = declaredNodes();
    return nodeResolvers(new NodeLookup(declarations, deps.accessTable, deps.services.entityPresencePort), declarations);
  },
});
