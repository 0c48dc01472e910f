import { z } from 'zod';
import * as ops from '../../generated/graphql/partner.operations.js';
import { policiesArea, policiesSchemas as schemas } from '../../subgraphs/partner/policies/index.js';
import { operation } from '../operations.js';
import { defineRoute, pathParam, type RestRoute, timestamp } from '../route.js';

const PREFIX = '/partnermanagement/v1/policies';
const codeFor = (rootField: string) => (field: string, missing: boolean) => policiesArea.codeFor(field, missing, rootField);
const shared = { emptyErrors: [] as [], internalErrorCode: 'PMS_COR_003' };

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
const audited = (row: Audited) => ({
  id: row.id,
  name: row.name,
  is_Active: row.isActive,
  cr_by: row.createdBy?.userId ?? null,
  cr_dtimes: timestamp(row.createdAt),
  up_by: row.updatedBy?.userId ?? null,
  upd_dtimes: row.updatedAt ? timestamp(row.updatedAt) : null,
});
const toRecord = (row: ops.PoliciesRecordFragment): z.input<typeof policyRecord> => ({ ...audited(row), desc: row.description });
const toFull = (row: ops.PoliciesFullFragment): z.input<typeof fullPolicy> => ({ ...toRecord(row), policies: row.policies });
const toGroup = (row: ops.PoliciesGroupRecordFragment): z.input<typeof groupRecord> => ({ ...audited(row), desc: row.description });
const toGroupWithManagers = (row: ops.PoliciesGroupWithManagersFragment): z.input<typeof groupWithManagers> => ({
  ...toGroup(row),
  managers: row.managers.map((manager) => manager.userId),
});

export const policiesRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: `${PREFIX}/group/new`,
    summary: 'Create a policy group',
    id: 'platform.partnermanagement.policy.group.create',
    input: { from: 'envelope', schema: schemas.createPolicyGroup },
    operation: operation(ops.PoliciesCreateGroupDocument),
    variables: (input) => input,
    response: groupRecord,
    result: (data) => toGroup(data.createPolicyGroup),
    codeFor: codeFor('createPolicyGroup'),
    ...shared,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/group/all`,
    summary: 'Every policy group',
    id: 'platform.partnermanagement.policy.group.read',
    input: { from: 'none' },
    operation: operation(ops.PoliciesGroupListDocument),
    variables: () => ({}),
    response: z.array(groupRecord),
    result: (data) => data.policyGroupList.map(toGroup),
    codeFor: codeFor('policyGroupList'),
    ...shared,
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/group/{policyGroupId}/managers`,
    summary: 'Make a POLICYMANAGER or PARTNERMANAGER user a manager of a policy group',
    id: 'platform.partnermanagement.policy.group.manager.create',
    input: { from: 'envelope', schema: schemas.addPolicyGroupManager.pick({ userId: true }) },
    operation: operation(ops.PoliciesAddManagerDocument),
    variables: (input, req) => ({ policyGroupId: pathParam(req, 'policyGroupId'), userId: input.userId }),
    response: groupWithManagers,
    result: (data) => toGroupWithManagers(data.addPolicyGroupManager),
    codeFor: codeFor('addPolicyGroupManager'),
    ...shared,
  }),
  defineRoute({
    method: 'delete',
    path: `${PREFIX}/group/{policyGroupId}/managers/{userId}`,
    summary: 'Remove a manager from a policy group',
    id: 'platform.partnermanagement.policy.group.manager.delete',
    input: { from: 'none' },
    operation: operation(ops.PoliciesRemoveManagerDocument),
    variables: (_input, req) => ({ policyGroupId: pathParam(req, 'policyGroupId'), userId: pathParam(req, 'userId') }),
    response: groupWithManagers,
    result: (data) => toGroupWithManagers(data.removePolicyGroupManager),
    codeFor: codeFor('removePolicyGroupManager'),
    ...shared,
  }),
  defineRoute({
    method: 'post',
    path: PREFIX,
    summary: "Create a policy in one of the caller's policy groups",
    id: 'platform.partnermanagement.policy.create',
    input: { from: 'envelope', schema: schemas.createPolicy },
    operation: operation(ops.PoliciesCreateDocument),
    variables: (input) => input,
    response: z.object({ policies: z.array(fullPolicy) }),
    result: (data) => ({ policies: [toFull(data.createPolicy)] }),
    codeFor: codeFor('createPolicy'),
    ...shared,
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/{policyID}`,
    summary: "Update a policy's name, description or content",
    id: 'platform.partnermanagement.policy.update',
    input: { from: 'envelope', schema: schemas.updatePolicy.omit({ policyId: true }) },
    operation: operation(ops.PoliciesUpdateDocument),
    variables: (input, req) => ({ ...input, policyId: pathParam(req, 'policyID') }),
    response: policyRecord,
    result: (data) => toRecord(data.updatePolicy),
    codeFor: codeFor('updatePolicy'),
    ...shared,
  }),
  defineRoute({
    method: 'patch',
    path: `${PREFIX}/{policyID}`,
    summary: 'Activate or deactivate a policy',
    id: 'platform.partnermanagement.policy.update.status',
    input: { from: 'envelope', schema: z.object({ status: z.string().pipe(z.enum(['Active', 'De-Active'])) }) },
    operation: operation(ops.PoliciesSetActiveDocument),
    variables: (input, req) => ({ policyId: pathParam(req, 'policyID'), isActive: input.status === 'Active' }),
    response: z.object({ message: z.string() }),
    result: (data) => ({ message: `Policy status updated to ${data.setPolicyActive.isActive ? 'Active' : 'De-Active'}` }),
    codeFor: codeFor('setPolicyActive'),
    ...shared,
  }),
  defineRoute({
    method: 'get',
    path: PREFIX,
    summary: "The policies of the caller's policy groups",
    id: 'platform.partnermanagement.policy.read',
    input: { from: 'none' },
    operation: operation(ops.PoliciesListDocument),
    variables: () => ({}),
    response: z.object({ policies: z.array(fullPolicy) }),
    result: (data) => ({ policies: data.policyList.map(toFull) }),
    codeFor: codeFor('policyList'),
    ...shared,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/{policyID}`,
    summary: "A policy of the caller's policy groups",
    id: 'platform.partnermanagement.policy.read',
    input: { from: 'none' },
    operation: operation(ops.PoliciesByIdDocument),
    variables: (_input, req) => ({ policyId: pathParam(req, 'policyID') }),
    response: fullPolicy,
    result: (data) => toFull(data.policy),
    codeFor: codeFor('policy'),
    ...shared,
  }),
];
