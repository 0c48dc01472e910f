import { Prisma } from '../../generated/prisma/client.js';

/** Prisma's unique violation: two writers raced for the same key, and the index let one through. */
export const isUniqueViolation = (error: unknown): boolean => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/**
 * A write that may break a unique key (a name, a login, a request's key):
 * null when another row holds it, however writers race, since the index lets
 * one through. The rules decide what a taken key means.
 */
export async function unlessTaken<T>(write: PromiseLike<T>): Promise<T | null> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}
