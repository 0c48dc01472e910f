import { Prisma } from '../../generated/prisma/client.js';

/** SQLSTATE classes of errors about what a statement holds, not about the connection: data (22), integrity (23), syntax or access (42). */
const DETERMINISTIC_CLASSES = ['22', '23', '42'];

/** The SQLSTATE a driver adapter reported under Prisma's error, when it did. */
function sqlStateOf(error: Prisma.PrismaClientKnownRequestError): string | undefined {
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown; code?: unknown } } | undefined)?.cause;
  const code = cause?.originalCode ?? cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether the database refused a statement for what it holds (a NUL in text,
 * a value out of range, a broken constraint): running it again fails again,
 * so it is not retried as a lost connection would be.
 */
export function isDeterministicDatabaseError(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientValidationError) return true;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const state = sqlStateOf(error);
  return state !== undefined && DETERMINISTIC_CLASSES.includes(state.slice(0, 2));
}
