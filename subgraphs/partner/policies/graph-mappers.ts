import type { Connection } from '../../../lib/graph/connection.js';
import type { PolicyGroupRow } from './groups-service.js';
import type { PolicyRow } from './service.js';

export type PolicyConnectionModel = Connection<PolicyRow>;
export type PolicyGroupConnectionModel = Connection<PolicyGroupRow>;

export const policiesMappers = {
  AuthPolicy: './policies/content.js#AuthPolicy',
  Policy: './policies/service.js#PolicyRow',
  PolicyGroup: './policies/groups-service.js#PolicyGroupRow',
  PolicyConnection: './policies/graph-mappers.js#PolicyConnectionModel',
  PolicyGroupConnection: './policies/graph-mappers.js#PolicyGroupConnectionModel',
};
