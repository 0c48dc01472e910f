import { randomUUID } from 'node:crypto';
import { PlatformError } from '../../../lib/errors.js';
import { packetProblems } from '../../../lib/packet/format.js';
import type { OpenedPacket, PacketFiles } from '../packets/packet-files.js';
import type { Deduplication } from './dedupe.js';
import { StageRejection, type Candidate, type JobStage, type Stage, type StageRegistration, type StageTransaction } from './stages.js';
import type { PipelineTx } from './storage.js';

/** What a stage decided: the next stage, a wait, or an end; with its transactions and what to write with them. */
export type StageOutcome = {
  transactions: StageTransaction[];
  /** written in the transaction that records the outcome (digests, candidates, the notification) */
  keep?: (tx: PipelineTx, now: Date) => Promise<void>;
  bioRefId?: string;
  /** possible duplicates for manual adjudication */
  candidates?: Candidate[];
} & ({ kind: 'next'; next: Stage } | { kind: 'wait' } | { kind: 'end'; status: 'PROCESSED' | 'REJECTED' });

/** The ID repository as the UIN stage needs it (identities by the RID that wrote them, the UIN pool). */
export interface IdentityPort {
  /** the UIN of the identity this RID created or updated, or null */
  uinWrittenBy(rid: string): Promise<string | null>;
  drawUin(): Promise<string>;
  /** the stored identity's demographics (its e-mail, phone and name for the notice of a change) */
  contactOf(uin: string): Promise<Record<string, unknown>>;
  create(rid: string, bioRefId: string | null, identity: Record<string, unknown>, documents: { category: string; value: string }[]): Promise<void>;
  update(
    rid: string,
    identity: Record<string, unknown>,
    status: 'ACTIVATED' | 'DEACTIVATED' | null,
    documents: { category: string; value: string }[],
  ): Promise<void>;
}

/** A notification for the resident, composed before the transaction that queues it. */
export interface ResidentNotice {
  compose(
    identity: Record<string, unknown>,
    langCode: string,
    code: 'RPR_UIN_GEN' | 'RPR_UIN_UPD',
    variables: Record<string, string>,
  ): Promise<((tx: PipelineTx) => Promise<void>) | null>;
}

export interface StageParts {
  packets: PacketFiles;
  dedupe: () => Deduplication;
  validateIdentity(identity: Record<string, unknown>): Promise<string[]>;
  identities: IdentityPort;
  notice: ResidentNotice;
}

/** Registration types that change an existing identity (its UIN in the packet) rather than create one. */
const CHANGES: Readonly<Record<string, { status: 'ACTIVATED' | 'DEACTIVATED' | null; label: string }>> = {
  UPDATE: { status: null, label: 'update' },
  DEACTIVATED: { status: 'DEACTIVATED', label: 'deactivation' },
  ACTIVATED: { status: 'ACTIVATED', label: 'activation' },
  RES_UPDATE: { status: null, label: 'update' },
  RES_REPRINT: { status: null, label: 'reprint' },
};

const identityOf = (packet: OpenedPacket): Record<string, unknown> => {
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

  /** Files and hashes, the metadata against the sync and the RID, the supervisor's approval, the identity against the ID schema. */
  private async validate(registration: StageRegistration): Promise<StageOutcome> {
    const packet = await this.open(registration);
    const problems = packetProblems(packet);
    const { meta } = packet;
    if (meta.registrationId && meta.registrationId !== registration.rid) problems.push('packet_meta_info.json names another registration id');
    if (meta.centerId && meta.centerId !== registration.centreId) problems.push('the packet was made at another registration centre than the sync names');
    if (meta.machineId && meta.machineId !== registration.machineId) problems.push('the packet was made on another machine than the sync names');
    if (meta.registrationType && meta.registrationType.toUpperCase() !== registration.registrationType.toUpperCase())
      problems.push('the packet has another registration type than the sync');
    if (!KNOWN_TYPES.has(registration.registrationType.toUpperCase()))
      problems.push(`registration type ${registration.registrationType} is not processed here`);
    if (problems.length) throw new StageRejection('REJECTED', problems.slice(0, 5).join('; '), 'PACKET_STRUCTURE_INVALID');
    if (registration.supervisorStatus !== 'APPROVED') throw new StageRejection('REJECTED', 'the supervisor rejected the registration', 'SUPERVISOR_REJECTED');
    const identity = identityOf(packet);
    const change = CHANGES[registration.registrationType.toUpperCase()];
    if (change) {
      if (typeof identity.UIN !== 'string' && typeof identity.UIN !== 'number')
        throw new StageRejection('REJECTED', `a ${change.label} packet names no UIN`, 'UIN_MISSING');
    } else {
      const schemaProblems = await this.parts.validateIdentity(identity);
      if (schemaProblems.length)
        throw new StageRejection('REJECTED', `the identity fails the ID schema: ${schemaProblems.slice(0, 3).join('; ')}`, 'ID_SCHEMA');
      if (!packet.cbeff) throw new StageRejection('REJECTED', 'the packet holds no biometrics', 'BIOMETRICS_MISSING');
    }
    const next: Stage = change && registration.registrationType.toUpperCase() !== 'UPDATE' ? 'UIN_GENERATOR' : 'BIOGRAPHIC_VERIFICATION';
    return {
      kind: 'next',
      next,
      transactions: [success('packet validated: files, hashes, metadata, supervisor approval and ID schema')],
      // One biometric reference per registration, kept through reprocessing (the ABIS referenceId).
      ...(registration.bioRefId ? {} : { bioRefId: randomUUID() }),
    };
  }

  private async deduplicate(registration: StageRegistration): Promise<StageOutcome> {
    const packet = await this.open(registration);
    const { answer, keep } = await this.parts.dedupe().check(registration, packet);
    if (answer.kind === 'waiting') return { kind: 'wait', transactions: [{ statusCode: 'IN_PROGRESS', comment: answer.comment }], ...(keep ? { keep } : {}) };
    if (answer.kind === 'unique') return { kind: 'next', next: 'UIN_GENERATOR', transactions: [success('no duplicate found')], ...(keep ? { keep } : {}) };
    return {
      kind: 'next',
      next: 'MANUAL_ADJUDICATION',
      transactions: [
        {
          statusCode: 'FAILED',
          subStatusCode: 'POTENTIAL_DUPLICATE',
          comment: `${answer.candidates.length} possible duplicate(s): sent to manual adjudication`,
        },
        { type: 'MANUAL_ADJUDICATION', statusCode: 'IN_PROGRESS', comment: 'waiting for an adjudicator' },
      ],
      candidates: answer.candidates,
      ...(keep ? { keep } : {}),
    };
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
    if (!uin) uin = await this.write(registration, identity, packet, change);
    // A change's packet names the UIN only: the resident is reached at the identity's stored address.
    const addressed = change ? { ...(await this.parts.identities.contactOf(uin)), ...identity } : identity;
    const notice = await this.parts.notice.compose(addressed, registration.langCode, change ? 'RPR_UIN_UPD' : 'RPR_UIN_GEN', {
      rid: registration.rid,
      uin,
      change: change?.label ?? '',
    });
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
      ...(notice ? { keep: (tx: PipelineTx) => notice(tx) } : {}),
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
        await identities.update(registration.rid, identity, change.status, documentsOf(packet));
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
