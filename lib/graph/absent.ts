import { PlatformError } from '../errors.js';

/**
 * A single-entity look-up as the graph answers it: null when the record does
 * not exist (the service's not-found code), so one missing record nulls its
 * own field and not the other root fields of the query; any other failure
 * (a refusal, a bad argument) stands. The REST routes turn the null back into
 * the spec's not-found error.
 */
export async function orNull<T>(lookup: Promise<T>, notFoundCode: string): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof PlatformError && error.code === notFoundCode) return null;
    throw error;
  }
}
