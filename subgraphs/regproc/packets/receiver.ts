import type { Registration } from '../../../generated/prisma/client.js';
import { PlatformError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/time.js';
import type { StagedUpload } from '../../../lib/uploads/spool.js';
import type { VirusScanner } from '../../../lib/virus-scan/index.js';
import { VirusScanError } from '../../../lib/virus-scan/index.js';
import type { PipelineService } from '../pipeline/service.js';
import type { PipelineStorage } from '../pipeline/storage.js';
import { packetKeyOf, type PacketFiles } from './packet-files.js';

/** The packet receiver's codes and MOSIP's messages (ABIS.md (e)). */
export const PKR = {
  notSynced: 'RPR-PKR-001',
  tooLarge: 'RPR-PKR-002',
  notZip: 'RPR-PKR-003',
  duplicate: 'RPR-PKR-005',
  hash: 'RPR-PKR-009',
  virus: 'RPR-PKR-010',
  size: 'RPR-PKR-013',
} as const;

const refuse = (code: string, message: string) => new PlatformError(code, message);

/** The RID a packet's file name carries: `<rid>.zip` (MOSIP 1.1) or `<rid>-<centre>_<machine>-<time>.zip` (1.2). */
export function ridOfFileName(fileName: string): string {
  const base = fileName.replace(/^.*[/\\]/, '').replace(/\.[^.]*$/, '');
  return base.split('-')[0] ?? '';
}

export interface ReceiverParts {
  store: Pick<PipelineStorage, 'byRid' | 'inTransaction' | 'move' | 'record'>;
  pipeline: Pick<PipelineService, 'packetReceived'>;
  packets: PacketFiles;
  scanner: VirusScanner;
  clock: Clock;
  maxPacketBytes: number;
  /** whether the caller may act for the registration's centre */
  reaches(centreId: string): Promise<boolean>;
}

/**
 * POST packetreceiver/registrationpackets: an uploaded packet (staged on
 * disk by the REST edge, hashed as it arrived) checked in MOSIP's order,
 * then stored encrypted as it came and handed to the pipeline. The
 * registration's row changes only once every check passed, in one
 * transaction with the first stage's job; a refused upload leaves nothing.
 */
export async function receivePacket(parts: ReceiverParts, upload: StagedUpload, receivedBy: string): Promise<string> {
  const rid = ridOfFileName(upload.filename);
  const row = /^\d{29}$/.test(rid) ? await parts.store.byRid(rid) : null;
  if (!row) throw refuse(PKR.notSynced, 'Registration packet is not in Sync with Sync table');
  // Another centre's registration reads as not synced to an officer: nothing says it exists.
  if (!(await parts.reaches(row.centreId))) throw refuse(PKR.notSynced, 'Registration packet is not in Sync with Sync table');
  check(row, upload, parts.maxPacketBytes);
  const verdict = await scan(parts.scanner, upload);
  if (verdict) throw refuse(PKR.virus, `Virus was found in the packet (${verdict})`);
  const key = packetKeyOf(rid);
  await parts.packets.store(rid, upload.path);
  const accepted = await parts.store.inTransaction(async (tx) => {
    const now = parts.clock.now();
    const moved = await parts.store.move(
      tx,
      rid,
      { stage: null, from: ['UPLOAD_PENDING'] },
      { status: 'PACKET_RECEIVED', stage: 'UPLOAD_PACKET', packetKey: key, receivedAt: now, receivedBy, attempts: 0 },
      now,
    );
    if (!moved) return false;
    await parts.store.record(
      tx,
      rid,
      row.langCode,
      'PACKET_RECEIVER',
      [
        ...(parts.scanner.kind === 'none' ? [] : [{ type: 'VIRUS_SCAN' as const, statusCode: 'SUCCESS' as const, comment: 'no virus found' }]),
        { statusCode: 'SUCCESS', comment: 'packet received and stored' },
      ],
      now,
    );
    await parts.pipeline.packetReceived(tx, rid);
    return true;
  });
  // A racing upload of the same packet got there first (the stored bytes are the same: same hash and size).
  if (!accepted) throw refuse(PKR.duplicate, 'Duplicate Request Received');
  return 'Packet is in PACKET_RECEIVED status';
}

/** The checks of the sync's values, in MOSIP's order: hash, file type, size, the maximum, a second upload. */
function check(row: Registration, upload: StagedUpload, maxBytes: number): void {
  // An upload cut off at the spool's limit cannot be hashed whole: its size is the only answer.
  if (upload.truncated) throw refuse(PKR.tooLarge, `The Registration Packet Size has exceeded the max upload size of ${maxBytes} bytes`);
  if (upload.sha256 !== row.packetHashValue) throw refuse(PKR.hash, 'The Registration Packet HashSequence is not equal as synced packet HashSequence');
  if (!/\.zip$/i.test(upload.filename)) throw refuse(PKR.notZip, 'Invalid file format: the packet must be a .zip file');
  if (upload.size !== row.packetSize) throw refuse(PKR.size, 'The Registration Packet Size is not equal as synced packet size');
  if (upload.size > maxBytes) throw refuse(PKR.tooLarge, `The Registration Packet Size has exceeded the max upload size of ${maxBytes} bytes`);
  if (row.status !== 'UPLOAD_PENDING') throw refuse(PKR.duplicate, 'Duplicate Request Received');
}

/** The virus's name when one is found; a scanner that cannot decide fails the upload (the client sends it again). */
async function scan(scanner: VirusScanner, upload: StagedUpload): Promise<string | null> {
  try {
    const verdict = await scanner.scanFile(upload.path);
    return verdict.infected ? verdict.signature : null;
  } catch (error) {
    if (error instanceof VirusScanError) throw new PlatformError('RPR-SYS-001', 'The packet could not be scanned for viruses; send it again later');
    throw error;
  }
}
