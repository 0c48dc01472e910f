import type { RequestContext } from '../context.js';

type Batch<K, V> = (keys: readonly K[]) => Promise<Map<K, V>>;

interface Pending<K, V> {
  keys: K[];
  waiting: { key: K; resolve: (value: V | null) => void; reject: (error: unknown) => void }[];
}

/**
 * A per-request batch loader: every key asked for during one turn of the
 * event loop is fetched by one call of `batch` (one query for a page of
 * entities, not one per row). Keyed by name in the request's context, so
 * nothing is shared between callers. A key not found resolves to null.
 */
export function loader<K, V>(context: RequestContext, name: string, batch: Batch<K, V>): (key: K) => Promise<V | null> {
  const existing = context.loaders.get(name) as ((key: K) => Promise<V | null>) | undefined;
  if (existing) return existing;
  let pending: Pending<K, V> | undefined;
  const flush = (current: Pending<K, V>) => {
    pending = undefined;
    batch([...new Set(current.keys)]).then(
      (found) => {
        for (const wait of current.waiting) wait.resolve(found.get(wait.key) ?? null);
      },
      (error: unknown) => {
        for (const wait of current.waiting) wait.reject(error);
      },
    );
  };
  const load = (key: K) =>
    new Promise<V | null>((resolve, reject) => {
      if (!pending) {
        const current: Pending<K, V> = { keys: [], waiting: [] };
        pending = current;
        setImmediate(() => flush(current));
      }
      pending.keys.push(key);
      pending.waiting.push({ key, resolve, reject });
    });
  context.loaders.set(name, load as (key: unknown) => Promise<unknown>);
  return load;
}
