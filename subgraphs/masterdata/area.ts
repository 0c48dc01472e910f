import type { z } from 'zod';
import type { PlatformDeps, PlatformServices } from '../../lib/deps.js';
import type { Access } from '../../lib/roles.js';
import type { Resolvers } from '../../generated/graphql/masterdata.js';

/**
 * One area of master data (ID schema, holidays, documents, devices, centres):
 * its services, the role rows and input rules of its root fields, and its
 * resolvers. The component (index.ts) assembles the areas; each keeps its
 * SDL in schema/masterdata/<area>.graphql and its REST routes in
 * rest-compat/masterdata/<area>.ts.
 */
export interface MasterdataArea {
  name: string;
  access: Readonly<Record<string, Access>>;
  /** zod schemas of its root fields' arguments, by field name */
  schemas: Readonly<Record<string, z.ZodType>>;
  /** the code of a missing or malformed argument of one of its root fields */
  codeFor: (field: string, missing: boolean, rootField: string) => string;
  services(deps: PlatformDeps): Partial<PlatformServices>;
  resolvers(deps: PlatformDeps): Resolvers;
}

export const defineArea = (area: MasterdataArea): MasterdataArea => area;

/** Resolver maps of several areas, type by type (Query, Mutation and User are shared). */
export function mergeResolvers(maps: readonly Resolvers[]): Record<string, object> {
  const merged: Record<string, object> = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map as Record<string, object>)) {
      const existing = merged[type];
      if (existing && typeof fields === 'object' && fields.constructor === Object) {
        const clash = Object.keys(fields).find((field) => field in existing);
        if (clash) throw new Error(`masterdata: ${type}.${clash} is resolved by two areas`);
        merged[type] = { ...existing, ...fields };
      } else merged[type] = fields;
    }
  }
  return merged;
}
