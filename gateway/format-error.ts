import type { GraphQLFormattedError } from 'graphql';
import { isCallerVisible, maskedError } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';

/** Apollo's formatError: catalogue codes go out with their message, anything else is logged and masked. */
export function errorFormatter(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = (error as { originalError?: unknown }).originalError;
    if (isCallerVisible({ extensions: formatted.extensions, originalError: original })) {
      const { code } = formatted.extensions ?? {};
      return { message: formatted.message, path: formatted.path, locations: formatted.locations, extensions: { code } };
    }
    logger.error({ err: original ?? error }, 'graphql request failed');
    return { ...maskedError().toJSON(), path: formatted.path };
  };
}
