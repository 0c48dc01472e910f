import { CryptoFormatError } from '../../../lib/crypto/envelope.js';
import { PlatformError } from '../../../lib/errors.js';
import type { ObjectStore } from '../../../lib/object-store/index.js';
import { PacketFormatError } from '../../../lib/packet/errors.js';
import { readPacketZip, type ReadPacket } from '../../../lib/packet/format.js';
import { StageFault, StageRejection } from '../pipeline/stages.js';

/** How far a packet's files may inflate (REGPROC_MAX_INFLATED_BYTES, REGPROC_MAX_INFLATION_RATIO). */
export interface InflationLimits {
  /** all files together, in bytes */
  maxInflatedBytes: number;
  /** all files together, as a multiple of the zip's own size */
  maxInflationRatio: number;
}

/** Where a registration's packet lives in the object store: as uploaded, E_REG(zip), never in clear. */
export const packetKeyOf = (rid: string) => `regproc/packets/${rid}.zip`;

/** A packet opened in memory: what its zip holds (never written anywhere in clear). */
export type OpenedPacket = ReadPacket;

/**
 * The registration packets in the object store. They stay as the client
 * encrypted them (under the REGISTRATION key); a stage that needs their
 * content decrypts and unzips them in memory, each time.
 */
export class PacketFiles {
  constructor(
    private readonly objects: ObjectStore,
    private readonly decrypt: (sealed: Buffer, centreMachineRefId: string) => Promise<Buffer>,
    private readonly limits: InflationLimits,
  ) {}

  /** Stores an uploaded packet from its spool file, streamed. */
  store(rid: string, filePath: string): Promise<void> {
    return this.objects.putFile(packetKeyOf(rid), filePath);
  }

  /** The packet as stored (encrypted), or null. */
  sealed(key: string): Promise<Buffer | null> {
    return this.objects.get(key);
  }

  storeSealed(rid: string, sealed: Buffer): Promise<void> {
    return this.objects.put(packetKeyOf(rid), sealed);
  }

  /**
   * Decrypts and unzips a registration's packet. A packet missing from the
   * store or a store out of reach is the platform's failure (the stage runs
   * again); one that cannot be decrypted never will be: FAILED. A zip that
   * is unreadable or inflates past the limits (a bomb) is the packet's own
   * fault: REJECTED at once, never inflated again by a retry.
   */
  async open(registration: { rid: string; centreId: string; machineId: string; packetKey: string | null }): Promise<OpenedPacket> {
    const sealed = registration.packetKey ? await this.objects.get(registration.packetKey) : null;
    if (!sealed) throw new StageFault(`the packet of ${registration.rid} is not in the object store`);
    let zip: Buffer;
    try {
      zip = await this.decrypt(sealed, `${registration.centreId}_${registration.machineId}`);
    } catch (error) {
      if (error instanceof PlatformError || error instanceof CryptoFormatError)
        throw new StageRejection('FAILED', 'the packet cannot be decrypted', 'PACKET_DECRYPTION_FAILED');
      throw error;
    }
    try {
      return await readPacketZip(zip, { maxUncompressedBytes: this.limits.maxInflatedBytes, maxInflationRatio: this.limits.maxInflationRatio });
    } catch (error) {
      if (error instanceof PacketFormatError) throw new StageRejection('REJECTED', `the packet is not a readable zip: ${error.message}`, 'PACKET_UNZIP_FAILED');
      throw error;
    }
  }
}
