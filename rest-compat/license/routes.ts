import { z } from 'zod';
import { license } from '../../subgraphs/license/index.js';
import { checkedExpiry, LICENSE_STATUSES, licenseInputs } from '../../subgraphs/license/inputs.js';
import { licenseErrors } from '../../subgraphs/license/errors.js';
import * as ops from '../../generated/graphql/license.operations.js';
import { fromWire, instantFromWire, present, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';

const { schemas } = licenseInputs;
/** The wire's license statuses are the graph's LicenseStatus values. */
const LICENSE_STATUS = Object.fromEntries(LICENSE_STATUSES.map((status) => [status, status]));
const route = routeFactory({
  component: license,
  internalErrorCode: 'KER-LKM-500',
  idPrefix: 'platform.kernel.licensekey.',
  pathPrefix: '/v1/licensekeymanager/license',
});

export const licenseRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/generate',
    summary: 'Generate a license key for a MISP',
    idSuffix: 'generate',
    input: { from: 'envelope', schema: schemas.generateLicenseKey },
    operation: ops.GenerateLicenseKeyDocument,
    variables: (input) => ({ MISPId: input.MISPId, licenseExpiryTime: instantFromWire(input.licenseExpiryTime, (text) => checkedExpiry(input.MISPId, text)) }),
    response: z.object({ licenseKey: z.string() }),
    result: (data) => ({ licenseKey: present(data.generateLicenseKey.licenseKey, 'licenseKey') }),
  }),
  route({
    method: 'post',
    path: '/permission',
    summary: "Map permissions to a MISP's license key",
    idSuffix: 'permission',
    input: { from: 'envelope', schema: schemas.mapLicensePermissions },
    operation: ops.MapLicensePermissionsDocument,
    response: z.object({ status: z.string() }),
    result: () => ({ status: 'Mapped License with the permissions' }),
  }),
  route({
    method: 'get',
    path: '/permission',
    summary: "The permissions of a MISP's license key",
    idSuffix: 'permission',
    input: { from: 'query', schema: schemas.licensePermissions },
    operation: ops.LicensePermissionsDocument,
    response: z.object({ permissions: z.array(z.string()) }),
    result: (data) => ({ permissions: data.licensePermissions }),
  }),
  route({
    method: 'put',
    path: '/status',
    summary: "Change a license key's status (ACTIVE, SUSPENDED, BLOCKED)",
    idSuffix: 'status',
    input: { from: 'envelope', schema: schemas.updateLicenseStatus },
    operation: ops.UpdateLicenseStatusDocument,
    variables: (input) => ({
      licenseKey: input.licenseKey,
      status: fromWire(input.status, LICENSE_STATUS, () => (input.licenseKey.trim() ? licenseErrors.badStatus(input.status) : licenseErrors.emptyKey())),
    }),
    response: z.object({ status: z.string() }),
    result: (data) => ({ status: `License status updated to ${data.updateLicenseStatus.status}` }),
  }),
];
