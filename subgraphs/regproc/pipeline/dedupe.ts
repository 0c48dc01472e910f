import { createHmac } from 'node:crypto';
import type { OpenedPacket } from '../packets/packet-files.js';
import { sampleDigests } from './biometrics.js';
import type { Candidate, StageOutcome, StageRegistration } from './stages.js';
import type { PipelineStorage, PipelineTx } from './storage.js';

/**
 * What de-duplication answers for one registration: no duplicate, possible
 * duplicates (manual adjudication), or not yet (an asynchronous check, as
 * an ABIS over the queue, answers later through `PipelineService.deduplicated`).
 */
export type DedupeAnswer = { kind: 'unique' } | { kind: 'candidates'; candidates: Candidate[] } | { kind: 'waiting'; comment: string };

/**
 * De-duplication's answer as the BIOGRAPHIC_VERIFICATION stage's outcome,
 * whether it came at once or later (an ABIS's reply): on to the UIN, or to
 * an adjudicator with the candidates; `keep` written with it.
 */
export function deduplicationOutcome(answer: DedupeAnswer, keep?: (tx: PipelineTx, now: Date) => Promise<void>): StageOutcome {
  const kept = keep ? { keep } : {};
  if (answer.kind === 'waiting') return { kind: 'wait', transactions: [{ statusCode: 'IN_PROGRESS', comment: answer.comment }], ...kept };
  if (answer.kind === 'unique')
    return { kind: 'next', next: 'UIN_GENERATOR', transactions: [{ statusCode: 'SUCCESS', comment: 'no duplicate found' }], ...kept };
  return {
    kind: 'next',
    next: 'MANUAL_ADJUDICATION',
    transactions: [
      { statusCode: 'FAILED', subStatusCode: 'POTENTIAL_DUPLICATE', comment: `${answer.candidates.length} possible duplicate(s): sent to manual adjudication` },
      { type: 'MANUAL_ADJUDICATION', statusCode: 'IN_PROGRESS', comment: 'waiting for an adjudicator' },
    ],
    candidates: answer.candidates,
    ...kept,
  };
}

/** What a check leaves to write with the stage's outcome, in its transaction. */
export interface DedupeOutcome {
  answer: DedupeAnswer;
  keep?: (tx: PipelineTx, now: Date) => Promise<void>;
}

/**
 * The seam biographic and biometric de-duplication fills (the
 * BIOGRAPHIC_VERIFICATION stage): `REGPROC_DEDUPE` picks the built-in one,
 * and the ABIS component plugs its own in (`PipelineService.useDeduplication`).
 */
export interface Deduplication {
  readonly name: string;
  check(registration: StageRegistration, packet: OpenedPacket): Promise<DedupeOutcome>;
  /**
   * 1:1 where the matcher is outside the platform (an ABIS): whether the
   * registration's biometrics match one stored reference, the identity a
   * change names; answered later (PipelineService.authenticatedIn). Without
   * it the platform's own matcher decides at once.
   */
  verify?(registration: StageRegistration, referenceId: string): Promise<{ comment: string; keep: (tx: PipelineTx, now: Date) => Promise<void> }>;
  /** An adjudicator rejected a registration this check held for a duplicate, in the decision's transaction: its reference may go. */
  rejected?(tx: PipelineTx, registration: { rid: string; bioRefId: string | null }, now: Date): Promise<void>;
}

/** Every registration passes (REGPROC_DEDUPE=none). */
export const noDeduplication: Deduplication = {
  name: 'none',
  check: () => Promise.resolve({ answer: { kind: 'unique' } }),
};

/** The biometric samples of a packet (exceptions left out), as the de-duplication reads them. */
export function biometricSamples(packet: OpenedPacket): Buffer[] {
  return packet.cbeff ? sampleDigests(packet.cbeff, 'the biometrics').map((hex) => Buffer.from(hex, 'hex')) : [];
}

/**
 * De-duplication inside the platform (REGPROC_DEDUPE=local): each biometric
 * sample's SHA-256, under a keyed hash (the master key's), so the index
 * holds no biometric and cannot be matched outside the platform. It finds
 * exact copies only, which is what a resubmitted or forged packet carries;
 * matching different captures of the same person is an ABIS's work.
 */
export class LocalDeduplication implements Deduplication {
  readonly name = 'local';

  constructor(
    private readonly store: Pick<PipelineStorage, 'holdersOf' | 'saveDigests'>,
    private readonly key: Buffer,
  ) {}

  async check(registration: StageRegistration, packet: OpenedPacket): Promise<DedupeOutcome> {
    const digests = biometricSamples(packet).map((sample) => createHmac('sha256', this.key).update(sample).digest('hex'));
    const holders = await this.store.holdersOf(digests, registration.rid);
    const keep = (tx: PipelineTx, now: Date) => this.store.saveDigests(tx, registration.rid, digests, now);
    if (!holders.length) return { answer: { kind: 'unique' }, keep };
    return { answer: { kind: 'candidates', candidates: holders.map((rid) => ({ rid, refType: 'RID', reasonCode: 'BIO' })) }, keep };
  }
}
