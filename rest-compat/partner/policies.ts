import { z } from 'zod';
import * as ops from '../../generated/graphql/partner.operations.js';
import { graphContent, policiesSchemas as schemas, spelledPolicies } from '../../subgraphs/partner/policies/inputs.js';
import { found, optionalTimestamp, pathParam, present, type RestRoute, timestamp } from '../route.js';
import { partnerErrors } from '../../subgraphs/partner/errors.js';
import { route } from './shared.js';

/** Document 1's policy record, without its `policies` member. */
const policyRecord = z.object({
  id: z.string(),
  name: z.string(),
  desc: z.string(),
  is_Active: z.boolean(),
  cr_by: z.string().nullable(),
  cr_dtimes: z.string(),
  up_by: z.string().nullable(),
  upd_dtimes: z.string().nullable(),
});
const policyContent = z.object({
  authPolicies: z.array(z.object({ authType: z.string(), authSubType: z.string().nullable(), mandatory: z.boolean() })),
  allowedKycAttributes: z.array(z.object({ attributeName: z.string(), required: z.boolean() })),
});
const fullPolicy = policyRecord.extend({ policies: policyContent });
/** A policy group in the same naming. */
const groupRecord = policyRecord.extend({ desc: z.string().nullable() });
const groupWithManagers = groupRecord.extend({ managers: z.array(z.string()) });

type Audited = Pick<ops.PoliciesRecordFragment, 'id' | 'name' | 'isActive' | 'createdBy' | 'createdAt' | 'updatedBy' | 'updatedAt'>;
// A policy's fields are gated on the entity (null for a partner, who reaches no policy route): a caller of these routes gets them.
const audited = (row: Audited) => ({
  id: row.id,
  name: row.name,
  is_Active: present(row.isActive, 'isActive'),
  cr_by: row.createdBy?.userId ?? null,
  cr_dtimes: timestamp(present(row.createdAt, 'createdAt')),
  up_by: row.updatedBy?.userId ?? null,
  upd_dtimes: optionalTimestamp(row.updatedAt),
});
const toRecord = (row: ops.PoliciesRecordFragment): z.input<typeof policyRecord> => ({ ...audited(row), desc: present(row.description, 'description') });
const toFull = (row: ops.PoliciesFullFragment): z.input<typeof fullPolicy> => ({
  ...toRecord(row),
  policies: spelledPolicies(present(row.policies, 'policies')),
});
const toGroup = (row: ops.PoliciesGroupRecordFragment): z.input<typeof groupRecord> => ({ ...audited(row), desc: row.description });
const toGroupWithManagers = (row: ops.PoliciesGroupWithManagersFragment): z.input<typeof groupWithManagers> => ({
  ...toGroup(row),
  managers: present(row.managers, 'managers').map((manager) => manager.userId),
});

export const policiesRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/policies/group/new',
    summary: 'Create a policy group',
    idSuffix: 'policy.group.create',
    input: { from: 'envelope', schema: schemas.createPolicyGroup },
    operation: ops.PoliciesCreateGroupDocument,
    response: groupRecord,
    result: (data) => toGroup(data.createPolicyGroup),
  }),
  route({
    method: 'get',
    path: '/policies/group/all',
    summary: 'Every policy group',
    idSuffix: 'policy.group.read',
    operation: ops.PoliciesGroupListDocument,
    response: z.array(groupRecord),
    result: (data) => data.policyGroupList.map(toGroup),
  }),
  route({
    method: 'post',
    path: '/policies/group/{policyGroupId}/managers',
    summary: 'Make a POLICYMANAGER or PARTNERMANAGER user a manager of a policy group',
    idSuffix: 'policy.group.manager.create',
    input: { from: 'envelope', schema: schemas.addPolicyGroupManager.pick({ userId: true }) },
    operation: ops.PoliciesAddManagerDocument,
    variables: (input, req) => ({ policyGroupId: pathParam(req, 'policyGroupId'), userId: input.userId }),
    response: groupWithManagers,
    result: (data) => toGroupWithManagers(data.addPolicyGroupManager),
  }),
  route({
    method: 'delete',
    path: '/policies/group/{policyGroupId}/managers/{userId}',
    summary: 'Remove a manager from a policy group',
    idSuffix: 'policy.group.manager.delete',
    operation: ops.PoliciesRemoveManagerDocument,
    variables: (_input, req) => ({ policyGroupId: pathParam(req, 'policyGroupId'), userId: pathParam(req, 'userId') }),
    response: groupWithManagers,
    result: (data) => toGroupWithManagers(data.removePolicyGroupManager),
  }),
  route({
    method: 'post',
    path: '/policies',
    summary: "Create a policy in one of the caller's policy groups",
    idSuffix: 'policy.create',
    input: { from: 'envelope', schema: schemas.createPolicy },
    operation: ops.PoliciesCreateDocument,
    variables: (input) => ({ ...input, policies: graphContent(input.policies) }),
    response: z.object({ policies: z.array(fullPolicy) }),
    result: (data) => ({ policies: [toFull(data.createPolicy)] }),
  }),
  route({
    method: 'put',
    path: '/policies/{policyID}',
    summary: "Update a policy's name, description or content",
    idSuffix: 'policy.update',
    input: { from: 'envelope', schema: schemas.updatePolicy.omit({ policyId: true }) },
    operation: ops.PoliciesUpdateDocument,
    variables: (input, req) => ({ ...input, policies: input.policies && graphContent(input.policies), policyId: pathParam(req, 'policyID') }),
    response: policyRecord,
    result: (data) => toRecord(data.updatePolicy),
  }),
  route({
    method: 'patch',
    path: '/policies/{policyID}',
    summary: 'Activate or deactivate a policy',
    idSuffix: 'policy.update.status',
    input: { from: 'envelope', schema: z.object({ status: z.string().pipe(z.enum(['Active', 'De-Active'])) }) },
    operation: ops.PoliciesSetActiveDocument,
    variables: (input, req) => ({ policyId: pathParam(req, 'policyID'), isActive: input.status === 'Active' }),
    response: z.object({ message: z.string() }),
    result: (data) => ({ message: `Policy status updated to ${data.setPolicyActive.isActive ? 'Active' : 'De-Active'}` }),
  }),
  route({
    method: 'get',
    path: '/policies',
    summary: "The policies of the caller's policy groups",
    idSuffix: 'policy.read',
    operation: ops.PoliciesListDocument,
    response: z.object({ policies: z.array(fullPolicy) }),
    result: (data) => ({ policies: data.policyList.map(toFull) }),
  }),
  route({
    method: 'get',
    path: '/policies/{policyID}',
    summary: "A policy of the caller's policy groups",
    idSuffix: 'policy.read',
    operation: ops.PoliciesByIdDocument,
    variables: (_input, req) => ({ policyId: pathParam(req, 'policyID') }),
    response: fullPolicy,
    result: (data, { res }) => toFull(found(data.policy, () => partnerErrors.policyNotFound(pathParam(res.req, 'policyID')))),
  }),
];
