/**
 * Changes announced inside this process, at once, for the caches of this
 * process (a write and the next read in the same instance must agree).
 * Other instances learn of the same changes through PostgreSQL NOTIFY.
 */
const listeners = new Map<string, Set<() => void>>();

export const localChanges = {
  announce(topic: string): void {
    for (const listener of listeners.get(topic) ?? []) listener();
  },
  /** Calls `listener` on each announcement of `topic`; returns how to stop. */
  on(topic: string, listener: () => void): () => void {
    const set = listeners.get(topic) ?? new Set();
    set.add(listener);
    listeners.set(topic, set);
    return () => set.delete(listener);
  },
};

/** A link of a partner's validation (license key, MISP, partner, API key, policy, policy group) changed. */
export const PARTNER_LINKS = 'partner-links';

/**
 * Makes each named method of a service announce `topic` once it settles
 * (succeeded or failed: a spare announcement only costs a cache miss), so
 * that the writes a cache depends on are listed in one place.
 */
export function announceAfter<T extends object>(service: T, methods: readonly (keyof T & string)[], topic: string): void {
  for (const name of methods) {
    const original = service[name] as unknown as (...args: unknown[]) => Promise<unknown>;
    const wrapped = async (...args: unknown[]) => {
      try {
        return await original.apply(service, args);
      } finally {
        localChanges.announce(topic);
      }
    };
    Object.defineProperty(service, name, { value: wrapped, configurable: true, writable: true });
  }
}
