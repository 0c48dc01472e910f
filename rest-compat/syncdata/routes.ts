import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/syncdata.operations.js';
import type { SyncClientSettingsQuery } from '../../generated/graphql/syncdata.operations.js';
import { parseArguments } from '../../lib/graph/inputs.js';
import { syncdata } from '../../subgraphs/syncdata/index.js';
import { syncdataInputs } from '../../subgraphs/syncdata/inputs.js';
import { lastUpdatedOf } from '../../subgraphs/syncdata/inputs.js';
import { instantFromWire, pathParam, timestamp, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';

const route = routeFactory({ component: syncdata, internalErrorCode: 'KER-SNC-500', idPrefix: 'platform.kernel.syncdata.', pathPrefix: '/v1/syncdata' });
const asMap = (entries: readonly { key: string; value: string }[]) => Object.fromEntries(entries.map(({ key, value }) => [key, value]));

/** MOSIP's query names: keyindex (the machine key's thumbprint), lastupdated (ISO 8601, optional). */
const clientSettingsQuery = z
  .object({ keyindex: z.string().trim().min(1).max(128), lastupdated: z.string().max(64).nullish() })
  .transform((query) => ({ keyIndex: query.keyindex, lastUpdated: query.lastupdated ?? null }));

const clientSettings = z.object({
  lastSyncTime: z.string(),
  dataToSync: z.array(z.object({ entityName: z.string(), entityType: z.string(), data: z.string() })),
});
const toClientSettings = ({ clientSettings: answer }: SyncClientSettingsQuery): z.input<typeof clientSettings> => ({
  lastSyncTime: timestamp(answer.lastSyncTime),
  dataToSync: answer.dataToSync,
});

const clientSettingsRoute = (path: string, regCenterId: (req: Request) => string | null) =>
  route({
    method: 'get',
    path,
    summary: "The master data a registration client needs, encrypted for the machine's key (keyindex); lastupdated: only what changed since",
    idSuffix: 'clientsettings',
    input: { from: 'query', schema: clientSettingsQuery },
    operation: ops.SyncClientSettingsDocument,
    variables: (input, req) => {
      // The wire's lastupdated as sync data checks it (KER-SNC-100); refused, the path's centre is checked first, as the graph
      // would (KER-SNC-999). Empty means a full sync, as when absent.
      const args = { keyIndex: input.keyIndex, regCenterId: regCenterId(req) };
      const earlier = () => void parseArguments(syncdataInputs, 'clientSettings', { ...args, lastUpdated: input.lastUpdated });
      return { ...args, lastUpdated: input.lastUpdated ? instantFromWire(input.lastUpdated, lastUpdatedOf, earlier) : null };
    },
    response: clientSettings,
    result: toClientSettings,
  });

export const syncdataRoutes: RestRoute[] = [
  route({
    method: 'get',
    path: '/configs',
    summary: 'The registration and global configuration of registration clients',
    idSuffix: 'configs',
    operation: ops.SyncConfigsDocument,
    response: z.object({ registrationConfiguration: z.record(z.string(), z.string()), globalConfiguration: z.record(z.string(), z.string()) }),
    result: (data) => ({
      registrationConfiguration: asMap(data.syncConfigs.registrationConfiguration),
      globalConfiguration: asMap(data.syncConfigs.globalConfiguration),
    }),
  }),
  route({
    method: 'get',
    path: '/roles',
    summary: 'Every role of the platform',
    idSuffix: 'roles',
    operation: ops.SyncRolesDocument,
    response: z.object({ roles: z.array(z.object({ roleId: z.string(), roleName: z.string(), roleDescription: z.string() })) }),
    result: (data) => ({ roles: data.syncRoles }),
  }),
  route({
    method: 'get',
    path: '/userdetails/{registrationcenterid}',
    summary: 'The users of a registration centre, with their password hashes for offline login',
    idSuffix: 'userdetails',
    operation: ops.SyncUserDetailsDocument,
    variables: (_, req) => ({ regCenterId: pathParam(req, 'registrationcenterid') }),
    response: z.object({
      userDetails: z.array(
        z.object({
          userName: z.string(),
          mail: z.string().nullable(),
          mobile: z.string().nullable(),
          langCode: z.string(),
          userPassword: z.string().nullable(),
          name: z.string().nullable(),
          roles: z.array(z.string()),
        }),
      ),
    }),
    result: (data) => ({ userDetails: data.syncUserDetails }),
  }),
  clientSettingsRoute('/clientsettings', () => null),
  clientSettingsRoute('/clientsettings/{regcenterid}', (req) => pathParam(req, 'regcenterid')),
];
