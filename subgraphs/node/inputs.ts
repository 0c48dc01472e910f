import { z } from 'zod';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { LONGEST_NODE_ID, MOST_NODES } from '../../lib/graph/nodes.js';

const nodeId = () => z.string().min(1).max(LONGEST_NODE_ID);

/** The arguments of node and nodes: a global id is short text; one call refetches at most one screen's worth. */
export const nodeInputs = fieldInputs(
  {
    node: z.object({ id: nodeId() }),
    nodes: z.object({ ids: z.array(nodeId()).max(MOST_NODES) }),
  },
  () => 'BAD_USER_INPUT',
);
