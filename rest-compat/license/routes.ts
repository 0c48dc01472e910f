import { z } from 'zod';
import { licenseCodeFor as codeFor, licenseInputs } from '../../subgraphs/license/inputs.js';
import * as ops from '../../generated/graphql/license.operations.js';
import { operation } from '../operations.js';
import { defineRoute, present, type RestRoute } from '../route.js';

const PREFIX = '/v1/licensekeymanager/license';
const { schemas } = licenseInputs;

export const licenseRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: `${PREFIX}/generate`,
    summary: 'Generate a license key for a MISP',
    id: 'platform.kernel.licensekey.generate',
    input: { from: 'envelope', schema: schemas.generateLicenseKey },
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
    input: { from: 'envelope', schema: schemas.mapLicensePermissions },
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
    input: { from: 'query', schema: schemas.licensePermissions },
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
    input: { from: 'envelope', schema: schemas.updateLicenseStatus },
    operation: operation(ops.UpdateLicenseStatusDocument),
    variables: (input) => input,
    response: z.object({ status: z.string() }),
    result: (data) => ({ status: `License status updated to ${data.updateLicenseStatus.status}` }),
    codeFor,
    internalErrorCode: 'KER-LKM-500',
  }),
];
