import { randomInt } from 'node:crypto';
import { PlatformError } from '../../../lib/errors.js';
import { withoutExceptions } from '../../../lib/packet/cbeff.js';
import { PacketFormatError } from '../../../lib/packet/errors.js';
import { makeRid, packetHash } from '../../../lib/packet/format.js';
import { buildPacketZip, sealPacket } from '../../../lib/packet/write.js';
import type { Logger } from '../../../lib/log.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import { residentIdentityOf } from '../../idrepo/callers.js';
import type { MachinePlacement } from '../../masterdata/centres/machines.js';
import type { PacketFiles } from '../packets/packet-files.js';
import { packetKeyOf } from '../packets/packet-files.js';
import type { PipelineService } from '../pipeline/service.js';
import type { PipelineStorage } from '../pipeline/storage.js';

export type Caller = Pick<Principal, 'subject' | 'subjectType' | 'roles'>;

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

/** The ABIS's shares of registrations' biometrics (the ABIS component's data shares, plugged in when it is built). */
export interface BiometricShares {
  /** the registration's CBEFF from a live share, one fetch counted, encrypted as the data share serves it; null when it has none */
  fetchOfRegistration(rid: string): Promise<string | null>;
}

export interface RequestParts {
  store: Pick<PipelineStorage, 'byRid' | 'inTransaction' | 'createGenerated' | 'record' | 'byBioRefId'>;
  pipeline: Pick<PipelineService, 'packetReceived'>;
  packets: PacketFiles;
  clock: Clock;
  logger: Pick<Logger, 'info'>;
  /** whether biometric de-duplication uses an ABIS (REGPROC_DEDUPE=abis): the only use of the biometric file */
  abisDedupe: boolean;
  /** the REGISTRATION certificate the platform seals its own packets for */
  certificate(): Promise<string>;
  placement(centreId: string, machineId: string): Promise<MachinePlacement>;
  /** the identity a UIN names (its opaque id and status), or null when none has it */
  identity(uin: string): Promise<{ id: string; status: string } | null>;
  /** the opaque id of the identity a VID names, whatever its status, nothing recorded; null when none (or malformed) */
  identityOfVid(vid: string): Promise<string | null>;
  /** the UIN of a VID (its own errors when the VID is not usable) */
  uinOfVid(vid: string): Promise<string>;
  reaches(caller: Caller, centreId: string): Promise<boolean>;
  /** the opaque id of the identity a registration created or updated, or null */
  identityOfRegistration(rid: string): Promise<string | null>;
  /** a read of the identity's biometrics recorded in its trail */
  recordBiometricRead(caller: Caller, identityId: string): Promise<void>;
}

/** Which identity status a generated registration type needs, and leaves. */
const GENERATED_TYPES: Readonly<Record<string, { from: string[] }>> = {
  DEACTIVATED: { from: ['ACTIVATED', 'BLOCKED'] },
  ACTIVATED: { from: ['BLOCKED'] },
  RES_REPRINT: { from: ['ACTIVATED'] },
};

const invalid = (what: string) => new PlatformError(PGS.invalidInput, `Invalid input parameter: ${what}`);
const denied = (why: string) => new PlatformError(PGS.accessDenied, `Access Denied: ${why}`);

/** Who acts for any identity (within the centres they reach); anyone else only as a resident, for its own. */
const ANY_IDENTITY: readonly string[] = ['REGISTRATION_PROCESSOR', 'GLOBAL_ADMIN'];

/** Whose identity a caller may change: any (undefined) or a resident's own (its opaque id). */
function identityScope(caller: Caller): string | undefined {
  if (caller.roles.some((role) => ANY_IDENTITY.includes(role))) return undefined;
  const own = residentIdentityOf(caller);
  // The RESIDENT role alone (a user's or a client's) names no identity: only a resident's own token does.
  if (!own) throw denied("a resident acts on the resident's own identity only");
  return own;
}

/**
 * Registrations the platform makes itself (MOSIP's request handler): UIN
 * activation and deactivation for the resident portal, card reprints. Each is
 * a real packet (its ID.json names the UIN), sealed for the platform's
 * REGISTRATION key and carried through the same pipeline as an uploaded one.
 * Also the DMZ bridge's secure-zone notice and the ABIS's biometric file.
 */
export class RequestService {
  private shares: BiometricShares | undefined;

  constructor(private readonly parts: RequestParts) {}

  /** The ABIS component's data shares, through which alone the biometric file is served. */
  useBiometricShares(shares: BiometricShares): void {
    this.shares = shares;
  }

  async packetGenerator(caller: Caller, input: GenerateInput): Promise<GeneratedRegistration> {
    const own = identityScope(caller);
    if (!['DEACTIVATED', 'ACTIVATED'].includes(input.registrationType)) throw invalid('registrationType is ACTIVATED or DEACTIVATED');
    return this.generate(caller, own, input.uin, input);
  }

  async reprint(caller: Caller, input: ReprintInput): Promise<GeneratedRegistration> {
    const own = identityScope(caller);
    if (input.registrationType !== 'RES_REPRINT')
      throw new PlatformError(PGS.invalidValue, 'Invalid request value, input data incorrect: registrationType is RES_REPRINT');
    if (!['UIN', 'VID'].includes(input.idType)) throw new PlatformError(PGS.invalidValue, 'Invalid request value, input data incorrect: idType is UIN or VID');
    let uin = input.id;
    if (input.idType === 'VID') {
      // A resident learns nothing of another's VID, and reads nothing of it: refused before the VID is resolved.
      if (own && (await this.parts.identityOfVid(input.id)) !== own) throw denied("the VID is not the resident's");
      try {
        uin = await this.parts.uinOfVid(input.id);
      } catch (error) {
        if (error instanceof PlatformError)
          throw new PlatformError(PGS.invalidValue, `Invalid request value, input data incorrect: the VID is not usable (${error.code})`);
        throw error;
      }
    }
    return this.generate(caller, own, uin, input);
  }

  /** `own`: the resident's identity the UIN must name; undefined for a caller acting for any identity. */
  private async generate(
    caller: Caller,
    own: string | undefined,
    uin: string,
    input: { centerId: string; machineId: string; registrationType: string; reason?: string | null },
  ): Promise<GeneratedRegistration> {
    const { parts } = this;
    const placement = await parts.placement(input.centerId, input.machineId);
    if (placement !== 'ACTIVE') throw invalid(`centerId and machineId name no active machine of an active centre (${placement})`);
    // A resident is mapped to no centre (MOSIP's resident service names a resident centre): its identity is its scope.
    if (!own && !(await parts.reaches(caller, input.centerId))) throw denied(`registration centre ${input.centerId} is not the caller's`);
    const identity = /^\d{1,64}$/.test(uin) ? await parts.identity(uin) : null;
    // Whether another's UIN exists is not a resident's to learn: the same refusal either way.
    if (own && identity?.id !== own) throw denied("the UIN is not the resident's");
    if (!identity) throw invalid('uin: no identity has this UIN');
    const { status } = identity;
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

  /**
   * GET bio-dedupe/biometricfile/{referenceid}: the registration's CBEFF
   * (exception biometrics left out) by its biometric reference, served only
   * as the data share serves it: with ABIS de-duplication on, from a live
   * share the platform made for the ABIS's insert, counted against it and
   * encrypted for the ABIS partner's certificate (base64 text). Each fetch is
   * recorded in the identity's read trail, or logged while the registration
   * has no identity yet. Anything else is RPR-MVS-001 and changes nothing.
   */
  async biometricFile(caller: Caller, referenceId: string): Promise<string> {
    const refused = () => denied('no biometric file for this reference id');
    const { shares, parts } = this;
    if (!parts.abisDedupe || !shares) throw refused();
    const registration = await parts.store.byBioRefId(referenceId);
    if (!registration) throw refused();
    const served = await shares.fetchOfRegistration(registration.rid);
    if (!served) throw refused();
    const identityId = await parts.identityOfRegistration(registration.rid);
    // Recorded before the biometrics leave; the RID and the client's id only: no personal data in the log.
    if (identityId) await parts.recordBiometricRead(caller, identityId);
    else parts.logger.info({ rid: registration.rid, readBy: caller.subject }, 'biometric file served to the ABIS (no identity yet)');
    return served;
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
