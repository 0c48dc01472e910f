import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/syncdata.operations.js';
import type { SyncClientSettingsQuery } from '../../generated/graphql/syncdata.operations.js';
import { operation } from '../operations.js';
import { defineRoute, pathParam, type RestRoute } from '../route.js';

const PREFIX = '/v1/syncdata';
const codeFor = () => 'KER-SNC-999';
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
  lastSyncTime: typeof answer.lastSyncTime === 'string' ? answer.lastSyncTime : answer.lastSyncTime.toISOString(),
  dataToSync: answer.dataToSync,
});

const clientSettingsRoute = (path: string, regCenterId: (req: Request) => string | null) =>
  defineRoute({
    method: 'get',
    path: `${PREFIX}${path}`,
    summary: "The master data a registration client needs, encrypted for the machine's key (keyindex); lastupdated: only what changed since",
    id: 'platform.kernel.syncdata.clientsettings',
    input: { from: 'query', schema: clientSettingsQuery },
    operation: operation(ops.SyncClientSettingsDocument),
    variables: (input, req) => ({ ...input, regCenterId: regCenterId(req) }),
    response: clientSettings,
    result: toClientSettings,
    codeFor,
    internalErrorCode: 'KER-SNC-500',
  });

export const syncdataRoutes: RestRoute[] = [
  defineRoute({
    method: 'get',
    path: `${PREFIX}/configs`,
    summary: 'The registration and global configuration of registration clients',
    id: 'platform.kernel.syncdata.configs',
    input: { from: 'none' },
    operation: operation(ops.SyncConfigsDocument),
    variables: () => ({}),
    response: z.object({ registrationConfiguration: z.record(z.string(), z.string()), globalConfiguration: z.record(z.string(), z.string()) }),
    result: (data) => ({
      registrationConfiguration: asMap(data.syncConfigs.registrationConfiguration),
      globalConfiguration: asMap(data.syncConfigs.globalConfiguration),
    }),
    codeFor,
    internalErrorCode: 'KER-SNC-500',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/roles`,
    summary: 'Every role of the platform',
    id: 'platform.kernel.syncdata.roles',
    input: { from: 'none' },
    operation: operation(ops.SyncRolesDocument),
    variables: () => ({}),
    response: z.object({ roles: z.array(z.object({ roleId: z.string(), roleName: z.string(), roleDescription: z.string() })) }),
    result: (data) => ({ roles: data.syncRoles }),
    codeFor,
    internalErrorCode: 'KER-SNC-500',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/userdetails/{registrationcenterid}`,
    summary: 'The users of a registration centre, with their password hashes for offline login',
    id: 'platform.kernel.syncdata.userdetails',
    input: { from: 'none' },
    operation: operation(ops.SyncUserDetailsDocument),
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
    codeFor,
    internalErrorCode: 'KER-SNC-500',
  }),
  clientSettingsRoute('/clientsettings', () => null),
  clientSettingsRoute('/clientsettings/{regcenterid}', (req) => pathParam(req, 'regcenterid')),
];
