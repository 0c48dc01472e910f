import type { PrismaClient } from '../../generated/prisma/client.js';
import type { KeyRingStorage } from '../../lib/crypto/field-cipher.js';
import { keyRing } from '../../lib/db/key-ring.js';

/** The cipher's keys (idrepo_key), sealed: the only code that touches that table. */
export const idrepoKeyStorage = (prisma: PrismaClient): KeyRingStorage => keyRing(prisma, 'idrepo_key', (client) => client.idrepoKey);
