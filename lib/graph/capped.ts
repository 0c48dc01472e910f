/**
 * A plain list's bound. Every list field of the portal graph declares how long
 * it can be with federation's `@listSize`: a connection by its `first` (at
 * most MAX_PAGE), a fixed or input-bounded list by `assumedSize`, and a list
 * the REST layer answers whole (the spec has no paging for it) by the cap its
 * service enforces here. `capped` reads one row more than the cap and refuses
 * the call when that row is there: a list the spec answers whole is either
 * whole or an error, never cut short in silence (the portal pages through the
 * matching connection instead).
 */
export async function capped<T>(cap: number, find: (take: number) => Promise<T[]>, refuse: () => Error): Promise<T[]> {
  const rows = await find(cap + 1);
  if (rows.length > cap) throw refuse();
  return rows;
}

/** The same bound over rows already in hand (a list built from another's answers). */
export function within<T>(cap: number, rows: T[], refuse: () => Error): T[] {
  if (rows.length > cap) throw refuse();
  return rows;
}
