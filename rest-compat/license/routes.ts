import { z } from 'zod';
import { identifier } from '../../lib/input.js';
import * as ops from '../../generated/graphql/license.operations.js';
import { operation } from '../operations.js';
import { defineRoute, present, type RestRoute } from '../route.js';

const text = identifier();
const PREFIX = '/v1/licensekeymanager/license';

/** A missing or malformed field gets the code of what it is. */
const codeFor = (field: string) =>
  field === 'MISPId'
    ? 'KER-LKM-001'
    : field === 'licenseKey'
      ? 'KER-LKM-006'
      : field.startsWith('permissions')
        ? 'KER-LKM-007'
        : field === 'licenseExpiryTime'
          ? 'KER-LKM-011'
          : field === 'status'
            ? 'KER-LKM-010'
            : 'KER-LKM-006';

const keyQuery = z.object({ licenseKey: text, MISPId: text });

export const licenseRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: `${PREFIX}/generate`,
    summary: 'Generate a license key for a MISP',
    id: 'platform.kernel.licensekey.generate',
    input: { from: 'envelope', schema: z.object({ MISPId: text, licenseExpiryTime: text }) },
    operation: operation(ops.GenerateLicenseKeyDocument),
    variables: (input) => input,
    response: z.object({ licenseKey: z.string() }),
    result: (data) => ({ licenseKey: present(data.generateLicenseKey.licenseKey, 'licenseKey') }),
    codeFor,
    internalErrorCode: 'KER-LKM-500',
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/permission`,
    summary: "Map permissions to a MISP's license key",
    id: 'platform.kernel.licensekey.permission',
    input: { from: 'envelope', schema: keyQuery.extend({ permissions: z.array(z.string().max(128)).min(1).max(64) }) },
    operation: operation(ops.MapLicensePermissionsDocument),
    variables: (input) => input,
    response: z.object({ status: z.string() }),
    result: () => ({ status: 'Mapped License with the permissions' }),
    codeFor,
    internalErrorCode: 'KER-LKM-500',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/permission`,
    summary: "The permissions of a MISP's license key",
    id: 'platform.kernel.licensekey.permission',
    input: { from: 'query', schema: keyQuery },
    operation: operation(ops.LicensePermissionsDocument),
    variables: (input) => input,
    response: z.object({ permissions: z.array(z.string()) }),
    result: (data) => ({ permissions: data.licensePermissions }),
    codeFor,
    internalErrorCode: 'KER-LKM-500',
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/status`,
    summary: "Change a license key's status (ACTIVE, SUSPENDED, BLOCKED)",
    id: 'platform.kernel.licensekey.status',
    input: { from: 'envelope', schema: z.object({ licenseKey: text, status: text }) },
    operation: operation(ops.UpdateLicenseStatusDocument),
    variables: (input) => input,
    response: z.object({ status: z.string() }),
    result: (data) => ({ status: `License status updated to ${data.updateLicenseStatus.status}` }),
    codeFor,
    internalErrorCode: 'KER-LKM-500',
  }),
];
