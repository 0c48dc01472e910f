/**
 * A value read from the database for a scrape, at most once per `ttlMs`:
 * scrapes (several Prometheus servers, a dashboard refreshing) cannot turn
 * into a query load, and concurrent scrapes share one read. A read that
 * fails or outlasts `timeoutMs` answers undefined (that scrape leaves its
 * series out) and is reported through `failed`; the scrape itself succeeds.
 */
export function sampled<T>(
  read: () => Promise<T>,
  options: { ttlMs: number; timeoutMs: number; failed: (error: unknown) => void; now?: () => number },
): () => Promise<T | undefined> {
  const now = options.now ?? Date.now;
  let kept: { at: number; value: T } | undefined;
  let reading: Promise<T | undefined> | undefined;
  return () => {
    if (kept && now() - kept.at < options.ttlMs) return Promise.resolve(kept.value);
    reading ??= withTimeout(read(), options.timeoutMs)
      .then(
        (value) => {
          kept = { at: now(), value };
          return value;
        },
        (error: unknown) => {
          options.failed(error);
          return undefined;
        },
      )
      .finally(() => (reading = undefined));
    return reading;
  };
}

class ReadTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReadTimeout(`no answer within ${ms} ms`)), ms).unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
