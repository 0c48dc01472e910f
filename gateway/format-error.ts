import type { GraphQLFormattedError } from 'graphql';
import { isCallerVisible, maskedError } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';

/**
 * Apollo's formatError: catalogue codes go out with their message, anything
 * else is logged and masked. A subgraph keeps the catalogue mark for the
 * gateway; the gateway drops it.
 */
export function errorFormatter(logger: Logger, options: { keepCatalogueMark?: boolean } = {}) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = (error as { originalError?: unknown }).originalError;
    if (isCallerVisible({ extensions: formatted.extensions, originalError: original })) {
      const { code, catalogue } = formatted.extensions ?? {};
      const extensions = options.keepCatalogueMark && catalogue ? { code, catalogue } : { code };
      return { message: formatted.message, path: formatted.path, locations: formatted.locations, extensions };
    }
    logger.error({ err: original ?? error }, 'graphql request failed');
    return { ...maskedError().toJSON(), path: formatted.path };
  };
}
