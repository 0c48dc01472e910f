import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Tx } from '../../../lib/db/lock.js';
import { LIVE } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { requireLanguage } from '../keys.js';

/** What centres and machines check before they write: the rows they point to exist (any language, not deleted). */
export class References {
  constructor(private readonly prisma: PrismaClient) {}

  language(code: string): Promise<void> {
    return requireLanguage(this.prisma, code);
  }

  async location(code: string): Promise<void> {
    const row = await this.prisma.location.findFirst({ where: { code, ...LIVE }, select: { code: true } });
    if (!row) throw masterdataErrors.locationNotFound(code);
  }

  async zoneExists(code: string): Promise<boolean> {
    return (await this.prisma.zone.findFirst({ where: { code, ...LIVE }, select: { code: true } })) !== null;
  }

  async centreExists(id: string): Promise<boolean> {
    return (await this.prisma.registrationCenter.findFirst({ where: { id, ...LIVE }, select: { id: true } })) !== null;
  }
}

const ID_TABLES = { centre: 'md_registration_center', machine: 'md_machine' } as const;
/** MOSIP's generated centre and machine ids: five digits from 10001 (platform.kernel.*id.length). */
const FIRST_ID = 10001;

/** The next numeric id of a table; call it under the table's lock. */
export async function nextId(tx: Tx, table: keyof typeof ID_TABLES): Promise<string> {
  const [row] = await tx.$queryRawUnsafe<{ max: string | null }[]>(`SELECT max(id::bigint)::text AS max FROM "${ID_TABLES[table]}" WHERE id ~ '^[0-9]{1,15}$'`);
  return String(Math.max(FIRST_ID, Number(row?.max ?? 0) + 1));
}
