import { PlatformError } from '../../../lib/errors.js';
import type { Principal } from '../../../lib/tokens.js';
import type { StagedUpload, UploadSpool } from '../../../lib/uploads/spool.js';
import { receivePacket, ridOfFileName, type ReceiverParts } from './receiver.js';

export type Caller = Pick<Principal, 'subject' | 'roles'>;

export interface ReceivePacketInput {
  fileName: string;
  contentBase64?: string | null;
  stagedUploadId?: string | null;
}

/**
 * The packet receiver's doors: the REST multipart upload (spooled by the
 * edge, claimed here by its id and the caller) and GraphQL's base64 packet
 * (spooled here), both checked by one rule (receiver.ts).
 */
export class PacketReceiverService {
  constructor(
    private readonly parts: Omit<ReceiverParts, 'reaches'>,
    private readonly spool: UploadSpool,
    private readonly reaches: (caller: Caller, centreId: string) => Promise<boolean>,
  ) {}

  async receive(caller: Caller, input: ReceivePacketInput): Promise<{ registrationId: string; status: string }> {
    let staged: StagedUpload | undefined;
    let ours = false;
    if (input.stagedUploadId) {
      staged = this.spool.claim(input.stagedUploadId, caller.subject);
      if (!staged) throw new PlatformError('RPR-RGS-015', 'Invalid request value, input data incorrect: no such upload of this caller');
    } else if (input.contentBase64) {
      staged = await this.spool.stageBuffer(Buffer.from(input.contentBase64, 'base64'), caller.subject, input.fileName);
      ours = true;
    } else throw new PlatformError('RPR-RGS-015', 'Invalid request value, input data incorrect: the packet is missing');
    try {
      const status = await receivePacket(
        { ...this.parts, reaches: (centreId) => this.reaches(caller, centreId) },
        { ...staged, filename: input.fileName },
        caller.subject,
      );
      return { registrationId: ridOfFileName(input.fileName), status };
    } finally {
      if (ours) await this.spool.release(staged.id);
    }
  }
}
