/**
 * A filter's newer field names beside the deprecated ones they replace (one
 * naming scheme over the graph: `nameContains`, `centreId`,
 * `createdAfter`/`createdBefore`): the value given under the newer name is
 * read under the older one, which the rules know, and the newer wins when
 * both are given. `aliases` maps each newer name to the older.
 */
export function olderNames<T extends object>(filter: T | null | undefined, aliases: Readonly<Record<string, string>>): T | null | undefined {
  if (!filter) return filter;
  const renamed = { ...filter } as Record<string, unknown>;
  for (const [newer, older] of Object.entries(aliases)) {
    const value = renamed[newer];
    delete renamed[newer];
    if (value !== undefined && value !== null) renamed[older] = value;
  }
  return renamed as T;
}

/** The centre filters' aliases (devices, machines, users). */
export const CENTRE_FILTER_NAMES = { nameContains: 'name', centreId: 'regCenterId' } as const;
