import type { z } from 'zod';
import type { PlatformDeps, PlatformServices } from '../lib/deps.js';
import { fieldInputs, type FieldInputs } from '../lib/graph/inputs.js';
import type { Access } from '../lib/roles.js';

/**
 * One area of a large component (master data's holidays, partner
 * management's MISPs): its services, the role rows and input rules of its
 * root fields, and its resolvers (`R`, the component's generated Resolvers).
 * The component assembles its areas; each keeps its SDL in
 * schema/<component>/<area>.graphql and its REST routes in
 * rest-compat/<component>/<area>.ts.
 */
export interface Area<R, S = unknown> {
  name: string;
  access: Readonly<Record<string, Access>>;
  /** zod schemas of its root fields' arguments, by field name */
  schemas: Readonly<Record<string, z.ZodType>>;
  /** the code of a missing or malformed argument of one of its root fields */
  codeFor: (field: string, missing: boolean, rootField: string) => string;
  /** `settings`: the component's settings */
  services(deps: PlatformDeps, settings: S): Partial<PlatformServices>;
  resolvers(deps: PlatformDeps): R;
}

/** Resolver maps of several areas, type by type (Query, Mutation and shared entities); a field resolved twice is a mistake. */
export function mergeResolvers(maps: readonly object[]): Record<string, object> {
  const merged: Record<string, object> = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map as Record<string, object>)) {
      const existing = merged[type];
      if (existing && typeof fields === 'object' && fields.constructor === Object) {
        const clash = Object.keys(fields).find((field) => field in existing);
        if (clash) throw new Error(`${type}.${clash} is resolved by two areas`);
        merged[type] = { ...existing, ...fields };
      } else merged[type] = fields;
    }
  }
  return merged;
}

/** What a component built of areas declares: the union of their role rows, input rules (each field with its area's codes) and services. */
export function assembleAreas<R, S>(areas: readonly Area<R, S>[], internalCode: string) {
  const areaOf = (rootField: string) => areas.find((area) => rootField in area.schemas);
  const inputs: FieldInputs = fieldInputs(Object.assign({}, ...areas.map((area) => area.schemas)) as Area<R, S>['schemas'], (field, missing, rootField) =>
    (areaOf(rootField)?.codeFor ?? (() => internalCode))(field, missing, rootField),
  );
  return {
    access: Object.assign({}, ...areas.map((area) => area.access)) as Area<R, S>['access'],
    inputs,
    // In area order, each area's services offered at once: a later area may build on an earlier one's.
    services: (deps: PlatformDeps, settings: S) => {
      const offered: Partial<PlatformServices> = {};
      for (const area of areas) Object.assign(deps.services, Object.assign(offered, area.services(deps, settings)));
      return offered;
    },
    resolvers: (deps: PlatformDeps, shared: object) => mergeResolvers([shared, ...areas.map((area) => area.resolvers(deps) as object)]),
  };
}
