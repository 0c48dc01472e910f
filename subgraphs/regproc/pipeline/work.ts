import { randomUUID } from 'node:crypto';
import { PlatformError } from '../../../lib/errors.js';
import { metaLabels, packetProblems } from '../../../lib/packet/format.js';
import type { OpenedPacket, PacketFiles } from '../packets/packet-files.js';
import { REQUEST_HANDLER_TYPES } from '../registrations/inputs.js';
import { authenticateResident, type ResidentBiometrics } from './authenticate.js';
import { deduplicationOutcome, type DedupeAnswer, type Deduplication } from './dedupe.js';
import { checkMakers, type MakersPort } from './makers.js';
import { StageRejection, type Candidate, type JobStage, type Stage, type StageOutcome, type StageRegistration, type StageTransaction } from './stages.js';
import type { RegistrationProcessed } from './events.js';
import type { PipelineTx } from './storage.js';

/** De-duplication's final answers (candidates or none). */
export type DedupeAnswerOf = Exclude<DedupeAnswer, { kind: 'waiting' }>;

/** The ID repository as the UIN stage needs it (identities by the RID that wrote them, the UIN pool). */
export interface IdentityPort {
  /** the UIN of the identity this RID created or updated, or null */
  uinWrittenBy(rid: string): Promise<string | null>;
  drawUin(): Promise<string>;
  /** the stored identity's demographics (its e-mail, phone and name for the notice of a change) */
  contactOf(uin: string): Promise<Record<string, unknown>>;
  /** which of these registrations created or updated the identity this UIN names */
  sameIdentity(uin: string, rids: readonly string[]): Promise<Set<string>>;
  create(rid: string, bioRefId: string | null, identity: Record<string, unknown>, documents: { category: string; value: string }[]): Promise<void>;
  /** a change; `bioRefId` when it brings new biometrics (the ABIS holds them under it) */
  update(
    rid: string,
    identity: Record<string, unknown>,
    status: 'ACTIVATED' | 'DEACTIVATED' | null,
    documents: { category: string; value: string }[],
    bioRefId: string | null,
  ): Promise<void>;
}

/**
 * The notifications for the resident, composed before the transaction that
 * queues them: to the identity's e-mail, else its phone; when a change
 * replaced the contact details, the `previous` e-mail and phone hear of it too.
 */
export interface ResidentNotice {
  compose(
    identity: Record<string, unknown>,
    langCode: string,
    code: 'RPR_UIN_GEN' | 'RPR_UIN_UPD',
    variables: Record<string, string>,
    previous?: Record<string, unknown>,
  ): Promise<((tx: PipelineTx) => Promise<void>) | null>;
}

export interface StageParts {
  packets: PacketFiles;
  dedupe: () => Deduplication;
  validateIdentity(identity: Record<string, unknown>): Promise<string[]>;
  identities: IdentityPort;
  notice: ResidentNotice;
  /** the centre, machine and users a packet names, as master data and auth know them */
  makers: MakersPort;
  /** the stored biometrics of the identity a change names */
  residents: ResidentBiometrics;
  /** tells the platform a registration is PROCESSED, in the transaction that records it (events.ts) */
  processed(event: RegistrationProcessed): Promise<void>;
}

/** Registration types that change an existing identity (its UIN in the packet) rather than create one. */
export const CHANGES: Readonly<Record<string, { status: 'ACTIVATED' | 'DEACTIVATED' | null; label: string }>> = {
  UPDATE: { status: null, label: 'update' },
  DEACTIVATED: { status: 'DEACTIVATED', label: 'deactivation' },
  ACTIVATED: { status: 'ACTIVATED', label: 'activation' },
  RES_UPDATE: { status: null, label: 'update' },
  RES_REPRINT: { status: null, label: 'reprint' },
};

export const identityOf = (packet: OpenedPacket): Record<string, unknown> => {
  const identity = (packet.idJson as { identity?: unknown } | undefined)?.identity;
  if (typeof identity !== 'object' || identity === null || Array.isArray(identity)) throw new StageRejection('REJECTED', 'ID.json has no identity object');
  return identity as Record<string, unknown>;
};

/** The packet's documents and biometrics as the ID repository takes them: base64 by ID schema field. */
const documentsOf = (packet: OpenedPacket) => [
  ...[...packet.documents].map(([field, bytes]) => ({ category: field, value: bytes.toString('base64') })),
  ...(packet.cbeff ? [{ category: 'individualBiometrics', value: packet.cbeff.toString('base64') }] : []),
];

const success = (comment: string): StageTransaction => ({ statusCode: 'SUCCESS', comment });

/** The registration types the pipeline carries; any other is refused at validation. */
const KNOWN_TYPES = new Set(['NEW', 'LOST', ...Object.keys(CHANGES)]);

/** Runs one stage's work on a registration: what it reads and decides, nothing written (the service records the outcome). */
export class StageWork {
  constructor(private readonly parts: StageParts) {}

  private open(registration: StageRegistration): Promise<OpenedPacket> {
    return this.parts.packets.open(registration);
  }

  run(stage: JobStage, registration: StageRegistration): Promise<StageOutcome> {
    switch (stage) {
      case 'UPLOAD_PACKET':
        return this.upload(registration);
      case 'VALIDATE_PACKET':
        return this.validate(registration);
      case 'BIOMETRIC_AUTHENTICATION':
        return this.authenticate(registration);
      case 'BIOGRAPHIC_VERIFICATION':
        return this.deduplicate(registration);
      case 'UIN_GENERATOR':
        return this.generate(registration);
    }
  }

  /** The packet decrypts and unzips (it stays stored as uploaded, encrypted). */
  private async upload(registration: StageRegistration): Promise<StageOutcome> {
    const packet = await this.open(registration);
    return { kind: 'next', next: 'VALIDATE_PACKET', transactions: [success(`packet decrypted and unpacked: ${packet.entries.length} files`)] };
  }

  /**
   * Files and hashes, the metadata against the sync and the RID, the
   * supervisor's approval, the identity against the ID schema; then, for a
   * packet a client uploaded, who made it (makers.ts). A change goes on to
   * the resident's biometric authentication, a generated packet straight to
   * the ID repository.
   */
  private async validate(registration: StageRegistration): Promise<StageOutcome> {
    const packet = await this.open(registration);
    const problems = packetProblems(packet);
    const { meta } = packet;
    const type = registration.registrationType.toUpperCase();
    if (meta.registrationId && meta.registrationId !== registration.rid) problems.push('packet_meta_info.json names another registration id');
    if (meta.centerId && meta.centerId !== registration.centreId) problems.push('the packet was made at another registration centre than the sync names');
    if (meta.machineId && meta.machineId !== registration.machineId) problems.push('the packet was made on another machine than the sync names');
    if (meta.registrationType && meta.registrationType.toUpperCase() !== type) problems.push('the packet has another registration type than the sync');
    if (!KNOWN_TYPES.has(type)) problems.push(`registration type ${registration.registrationType} is not processed here`);
    if (problems.length) throw new StageRejection('REJECTED', problems.slice(0, 5).join('; '), 'PACKET_STRUCTURE_INVALID');
    const uploaded = registration.origin !== 'REQUEST_HANDLER';
    // The request handler's checks (the caller's scope, the identity's status) are its own: an upload of its types gets round them.
    if (uploaded && REQUEST_HANDLER_TYPES.has(type))
      throw new StageRejection('REJECTED', `a ${type} packet is made by the platform's request handler only, never uploaded`, 'NOT_FROM_REQUEST_HANDLER');
    if (registration.supervisorStatus !== 'APPROVED') throw new StageRejection('REJECTED', 'the supervisor rejected the registration', 'SUPERVISOR_REJECTED');
    const identity = identityOf(packet);
    const change = CHANGES[type];
    if (change) {
      if (typeof identity.UIN !== 'string' && typeof identity.UIN !== 'number')
        throw new StageRejection('REJECTED', `a ${change.label} packet names no UIN`, 'UIN_MISSING');
    } else {
      const schemaProblems = await this.parts.validateIdentity(identity).catch((error: unknown) => {
        // The packet's own fault, which no retry mends (no published schema at all is the platform's: REPROCESS).
        if (error instanceof PlatformError && error.field?.[0] === 'IDSchemaVersion')
          throw new StageRejection(
            'REJECTED',
            `the packet names ID schema version ${String(identity.IDSchemaVersion)}, which was never published`,
            'ID_SCHEMA',
          );
        throw error;
      });
      if (schemaProblems.length)
        throw new StageRejection('REJECTED', `the identity fails the ID schema: ${schemaProblems.slice(0, 3).join('; ')}`, 'ID_SCHEMA');
      if (!packet.cbeff) throw new StageRejection('REJECTED', 'the packet holds no biometrics', 'BIOMETRICS_MISSING');
    }
    const validated = [success('packet validated: files, hashes, metadata, supervisor approval and ID schema')];
    const makers = uploaded ? await checkMakers(registration, packet, this.parts.makers, validated) : [];
    const next: Stage = !change ? 'BIOGRAPHIC_VERIFICATION' : uploaded ? 'BIOMETRIC_AUTHENTICATION' : 'UIN_GENERATOR';
    return {
      kind: 'next',
      next,
      transactions: [...validated, ...makers],
      // One biometric reference per registration, kept through reprocessing (the ABIS referenceId).
      ...(registration.bioRefId ? {} : { bioRefId: randomUUID() }),
    };
  }

  /** A packet that changes an identity: the resident proves it is them (authenticate.ts). */
  private async authenticate(registration: StageRegistration): Promise<StageOutcome> {
    const packet = await this.open(registration);
    return authenticateResident(registration, packet, String(identityOf(packet).UIN), { residents: this.parts.residents, dedupe: this.parts.dedupe() });
  }

  private async deduplicate(registration: StageRegistration): Promise<StageOutcome> {
    const packet = await this.open(registration);
    const { answer, keep } = await this.parts.dedupe().check(registration, packet);
    return deduplicationOutcome(answer.kind === 'candidates' ? await this.others(registration, answer.candidates, packet) : answer, keep);
  }

  /**
   * The candidates that are someone else: a packet that changes an identity
   * matches that identity's own registrations (the resident came back), which
   * are no duplicate; a match with anyone else still is (MOSIP's ABISHandlerUtil).
   */
  async others(registration: StageRegistration, candidates: Candidate[], opened?: OpenedPacket): Promise<DedupeAnswerOf> {
    const change = CHANGES[registration.registrationType.toUpperCase()];
    if (!change || !candidates.length) return candidates.length ? { kind: 'candidates', candidates } : { kind: 'unique' };
    const uin = String(identityOf(opened ?? (await this.open(registration))).UIN);
    const own = await this.parts.identities.sameIdentity(
      uin,
      candidates.map((candidate) => candidate.rid),
    );
    const left = candidates.filter((candidate) => !own.has(candidate.rid));
    return left.length ? { kind: 'candidates', candidates: left } : { kind: 'unique' };
  }

  /**
   * The identity in the ID repository: a new one with a UIN from the pool,
   * or the change a later registration makes. A RID already written (a run
   * cut short after the ID repository's commit) is not written again: the
   * stage goes on with what is there, so a resident gets one identity.
   */
  private async generate(registration: StageRegistration): Promise<StageOutcome> {
    const packet = await this.open(registration);
    const identity = identityOf(packet);
    const change = CHANGES[registration.registrationType.toUpperCase()];
    const reprint = registration.registrationType.toUpperCase() === 'RES_REPRINT';
    let uin = reprint ? String(identity.UIN) : await this.parts.identities.uinWrittenBy(registration.rid);
    // The contact details before the change, read before it is written: they hear of a change of themselves.
    const previous = change && !uin ? await this.parts.identities.contactOf(String(identity.UIN)) : undefined;
    if (!uin) uin = await this.write(registration, identity, packet, change);
    // A change's packet names the UIN only: the resident is reached at the identity's stored address.
    const addressed = change ? { ...(await this.parts.identities.contactOf(uin)), ...identity } : identity;
    const notice = await this.parts.notice.compose(
      addressed,
      registration.langCode,
      change ? 'RPR_UIN_UPD' : 'RPR_UIN_GEN',
      { rid: registration.rid, uin, change: change?.label ?? '' },
      previous,
    );
    return {
      kind: 'end',
      status: 'PROCESSED',
      transactions: [
        reprint
          ? { type: 'PRINT_SERVICE', statusCode: 'SUCCESS', comment: 'a new card is requested' }
          : success(change ? `identity ${change.label} stored in the ID repository` : 'UIN generated and the identity stored in the ID repository'),
        notice
          ? { type: 'NOTIFICATION', statusCode: 'SUCCESS', comment: 'the resident is notified' }
          : { type: 'NOTIFICATION', statusCode: 'FAILED', subStatusCode: 'NO_ADDRESS', comment: 'the identity has no e-mail or phone to notify' },
      ],
      keep: async (tx: PipelineTx) => {
        await notice?.(tx);
        const preRegistrationId = metaLabels(packet.metaInfo).get('preRegistrationId')?.trim() || null;
        await this.parts.processed({ rid: registration.rid, centreId: registration.centreId, preRegistrationId, tx });
      },
    };
  }

  private async write(
    registration: StageRegistration,
    identity: Record<string, unknown>,
    packet: OpenedPacket,
    change: (typeof CHANGES)[string] | undefined,
  ): Promise<string> {
    const { identities } = this.parts;
    try {
      if (change) {
        const uin = String(identity.UIN);
        await identities.update(registration.rid, identity, change.status, documentsOf(packet), packet.cbeff ? registration.bioRefId : null);
        return uin;
      }
      const uin = await identities.drawUin();
      await identities.create(registration.rid, registration.bioRefId, { ...identity, UIN: uin }, documentsOf(packet));
      return uin;
    } catch (error) {
      // A racing run stored the RID first: its identity stands.
      const written = error instanceof PlatformError && error.code === 'IDR-IDC-012' ? await identities.uinWrittenBy(registration.rid) : null;
      if (written) return written;
      if (error instanceof PlatformError && isRefusal(error.code))
        throw new StageRejection('REJECTED', `the ID repository refused the identity: ${error.message}`, error.code);
      throw error;
    }
  }
}

/** The ID repository's answers that no retry changes: the identity itself is wrong (schema, documents, a missing UIN, a deactivated identity). */
const isRefusal = (code: string) => ['IDR-IDC-001', 'IDR-IDC-002', 'IDR-IDC-005', 'IDR-IDC-007', 'IDR-IDS-005'].includes(code);
