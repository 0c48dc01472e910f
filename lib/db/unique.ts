import { Prisma } from '../../generated/prisma/client.js';

/** Prisma's unique violation: two writers raced for the same key, and the index let one through. */
export const isUniqueViolation = (error: unknown): boolean => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
