import { randomInt } from 'node:crypto';
import { PlatformError } from '../../../lib/errors.js';
import { withoutExceptions } from '../../../lib/packet/cbeff.js';
import { PacketFormatError } from '../../../lib/packet/errors.js';
import { buildPacketZip, makeRid, packetHash, sealPacket } from '../../../lib/packet/format.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import type { MachinePlacement } from '../../masterdata/centres/machines.js';
import type { PacketFiles } from '../packets/packet-files.js';
import { packetKeyOf } from '../packets/packet-files.js';
import type { PipelineService } from '../pipeline/service.js';
import type { PipelineStorage } from '../pipeline/storage.js';

export type Caller = Pick<Principal, 'subject' | 'roles'>;

/** The request handler's codes (spec Document 1). */
const PGS = { invalidInput: 'RPR-PGS-011', accessDenied: 'RPR-MVS-001', invalidValue: 'RPR-RGS-015' } as const;

export interface GenerateInput {
  centerId: string;
  machineId: string;
  reason?: string | null;
  registrationType: string;
  uin: string;
}

export interface ReprintInput {
  cardType?: string | null;
  centerId: string;
  id: string;
  idType: string;
  machineId: string;
  reason?: string | null;
  registrationType: string;
}

export interface GeneratedRegistration {
  registrationId: string;
  status: string;
  message: string;
}

export interface SecurezoneNotice {
  rid: string;
  isValid?: boolean | null;
  internalError?: boolean | null;
}

export interface RequestParts {
  store: Pick<PipelineStorage, 'byRid' | 'inTransaction' | 'createGenerated' | 'record' | 'byBioRefId'>;
  pipeline: Pick<PipelineService, 'packetReceived'>;
  packets: PacketFiles;
  clock: Clock;
  /** the REGISTRATION certificate the platform seals its own packets for */
  certificate(): Promise<string>;
  placement(centreId: string, machineId: string): Promise<MachinePlacement>;
  /** the identity's status by UIN, or null when none has it */
  identityStatus(uin: string): Promise<string | null>;
  /** the UIN of a VID (its own errors when the VID is not usable) */
  uinOfVid(vid: string): Promise<string>;
  reaches(caller: Caller, centreId: string): Promise<boolean>;
}

/** Which identity status a generated registration type needs, and leaves. */
const GENERATED_TYPES: Readonly<Record<string, { from: string[] }>> = {
  DEACTIVATED: { from: ['ACTIVATED', 'BLOCKED'] },
  ACTIVATED: { from: ['BLOCKED'] },
  RES_REPRINT: { from: ['ACTIVATED'] },
};

const invalid = (what: string) => new PlatformError(PGS.invalidInput, `Invalid input parameter: ${what}`);

/**
 * Registrations the platform makes itself (MOSIP's request handler): UIN
 * activation and deactivation for the resident portal, card reprints. Each is
 * a real packet (its ID.json names the UIN), sealed for the platform's
 * REGISTRATION key and carried through the same pipeline as an uploaded one.
 * Also the DMZ bridge's secure-zone notice and the ABIS's biometric file.
 */
export class RequestService {
  constructor(private readonly parts: RequestParts) {}

  async packetGenerator(caller: Caller, input: GenerateInput): Promise<GeneratedRegistration> {
    if (!['DEACTIVATED', 'ACTIVATED'].includes(input.registrationType)) throw invalid('registrationType is ACTIVATED or DEACTIVATED');
    return this.generate(caller, input.uin, input);
  }

  async reprint(caller: Caller, input: ReprintInput): Promise<GeneratedRegistration> {
    if (input.registrationType !== 'RES_REPRINT')
      throw new PlatformError(PGS.invalidValue, 'Invalid request value, input data incorrect: registrationType is RES_REPRINT');
    if (!['UIN', 'VID'].includes(input.idType)) throw new PlatformError(PGS.invalidValue, 'Invalid request value, input data incorrect: idType is UIN or VID');
    let uin = input.id;
    if (input.idType === 'VID') {
      try {
        uin = await this.parts.uinOfVid(input.id);
      } catch (error) {
        if (error instanceof PlatformError)
          throw new PlatformError(PGS.invalidValue, `Invalid request value, input data incorrect: the VID is not usable (${error.code})`);
        throw error;
      }
    }
    return this.generate(caller, uin, input);
  }

  private async generate(
    caller: Caller,
    uin: string,
    input: { centerId: string; machineId: string; registrationType: string; reason?: string | null },
  ): Promise<GeneratedRegistration> {
    const { parts } = this;
    const placement = await parts.placement(input.centerId, input.machineId);
    if (placement !== 'ACTIVE') throw invalid(`centerId and machineId name no active machine of an active centre (${placement})`);
    if (!(await parts.reaches(caller, input.centerId)))
      throw new PlatformError(PGS.accessDenied, `Access Denied: registration centre ${input.centerId} is not the caller's`);
    const status = /^\d{1,64}$/.test(uin) ? await parts.identityStatus(uin) : null;
    if (!status) throw invalid('uin: no identity has this UIN');
    if (!GENERATED_TYPES[input.registrationType]!.from.includes(status)) throw invalid(`uin: the identity is ${status}`);
    const now = parts.clock.now();
    const certificate = await parts.certificate();
    for (let attempt = 0; attempt < 5; attempt++) {
      // The sequence is random: the platform is not a client machine counting its registrations.
      const rid = makeRid(input.centerId, input.machineId, randomInt(100_000), now);
      const zip = buildPacketZip({
        registrationId: rid,
        registrationType: input.registrationType,
        centerId: input.centerId,
        machineId: input.machineId,
        creationDate: now,
        officerId: caller.subject,
        supervisorId: caller.subject,
        identity: { UIN: uin },
      });
      const sealed = sealPacket(zip, certificate);
      if (await parts.store.byRid(rid)) continue;
      await parts.packets.storeSealed(rid, sealed);
      const created = await parts.store.inTransaction(async (tx) => {
        const made = await parts.store.createGenerated(tx, {
          rid,
          centreId: input.centerId,
          machineId: input.machineId,
          registrationType: input.registrationType,
          packetHashValue: packetHash(sealed),
          packetSize: sealed.length,
          supervisorComment: input.reason ?? null,
          packetKey: packetKeyOf(rid),
          by: caller.subject,
          now,
        });
        if (!made) return false;
        await parts.store.record(
          tx,
          rid,
          'eng',
          'PACKET_RECEIVER',
          [{ statusCode: 'SUCCESS', comment: `${input.registrationType} packet generated for ${caller.subject}` }],
          now,
        );
        await parts.pipeline.packetReceived(tx, rid);
        return true;
      });
      if (created) return { registrationId: rid, status: 'PACKET_RECEIVED', message: 'Packet created and sent to the registration processor' };
    }
    throw new PlatformError('RPR-SYS-001', 'Unexpected exception: no free registration id');
  }

  /** POST uploader/securezone: whether the packet is in the platform's store and on its way (plain text, as MOSIP answers). */
  async securezone(notice: SecurezoneNotice): Promise<string> {
    const row = await this.parts.store.byRid(notice.rid);
    const landed = row?.packetKey && notice.isValid !== false && !notice.internalError;
    return landed ? `Packet ${notice.rid} is forwarded to next stage` : `Packet ${notice.rid} is not uploaded to the file system`;
  }

  /** GET bio-dedupe/biometricfile/{referenceid}: the registration's CBEFF without exception biometrics, by its biometric reference. */
  async biometricFile(referenceId: string): Promise<Buffer> {
    const cbeff = await this.cbeffOf(await this.parts.store.byBioRefId(referenceId));
    if (!cbeff) throw new PlatformError(PGS.accessDenied, 'Access Denied: no biometric file for this reference id');
    return cbeff;
  }

  /** The CBEFF of a registration (exception biometrics left out), for its ABIS data share; null when it has none. */
  async cbeffOfRegistration(rid: string): Promise<Buffer | null> {
    return this.cbeffOf(await this.parts.store.byRid(rid));
  }

  private async cbeffOf(row: { rid: string; centreId: string; machineId: string; packetKey: string | null } | null): Promise<Buffer | null> {
    if (!row?.packetKey) return null;
    const packet = await this.parts.packets.open(row);
    if (!packet.cbeff) return null;
    try {
      return withoutExceptions(packet.cbeff);
    } catch (error) {
      if (error instanceof PacketFormatError) return null;
      throw error;
    }
  }
}
