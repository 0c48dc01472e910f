import type { PrismaClient } from '../../generated/prisma/client.js';
import type { KeyRingStorage } from '../../lib/crypto/field-cipher.js';
import { keyRing } from '../../lib/db/key-ring.js';

/** The cipher's keys (prereg_key), sealed: the only code that touches that table. */
export const preregKeyStorage = (prisma: PrismaClient): KeyRingStorage => keyRing(prisma, 'prereg_key', (client) => client.preRegKey);
