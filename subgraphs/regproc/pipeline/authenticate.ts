import type { OpenedPacket } from '../packets/packet-files.js';
import { sampleDigests, sharesSample, storedDigests } from './biometrics.js';
import type { Deduplication } from './dedupe.js';
import { StageRejection, type StageOutcome, type StageRegistration } from './stages.js';

/** The identity a change names, as the ID repository holds it. */
export interface StoredResident {
  /** the stored biometrics (CBEFF), or null */
  biometrics: Buffer | null;
  /** the identity's biometric reference (the ABIS referenceId it was inserted under), or null */
  referenceId: string | null;
}

export interface ResidentBiometrics {
  /** the identity a UIN names, or null when none has it (reading its biometrics is recorded in its trail) */
  ofUin(uin: string): Promise<StoredResident | null>;
}

const STAGE = 'BIOMETRIC_AUTHENTICATION';
const FAILED = 'RPR-BAU-FAILED-001';
const refuse = (message: string, code = FAILED) => new StageRejection('REJECTED', message, code);

/**
 * BIOMETRIC_AUTHENTICATION (MOSIP's biometric authentication stage): a packet
 * that changes an identity carries the resident's biometrics, and they match
 * the stored ones 1:1 — with the platform's matcher, or, when the
 * de-duplication is an ABIS, by an identify whose gallery is the identity's
 * own reference (the answer comes later, PipelineService.authenticatedIn).
 * The one documented exception: an identity stored with no biometric sample
 * (every one an exception) has nothing to match, and the change goes on; the
 * previous contact details hear of any change of them (work.ts).
 */
export async function authenticateResident(
  registration: StageRegistration,
  packet: OpenedPacket,
  uin: string,
  parts: { residents: ResidentBiometrics; dedupe: Deduplication },
): Promise<StageOutcome> {
  const stored = await parts.residents.ofUin(uin);
  if (!stored) throw refuse('no identity has the UIN the packet names', 'UIN_NOT_FOUND');
  const known = storedDigests(stored.biometrics);
  const next = (subStatusCode: string, comment: string): StageOutcome => ({
    kind: 'next',
    next: 'BIOGRAPHIC_VERIFICATION',
    transactions: [{ statusCode: 'SUCCESS', subStatusCode, comment }],
  });
  if (!known.size) return next('RPR-BAU-SUCCESS-002', 'skipped: the identity holds no biometric sample to match (every one an exception)');
  const probe = packet.cbeff ? sampleDigests(packet.cbeff, 'the biometrics', STAGE) : [];
  if (!probe.length) throw refuse('the packet carries no biometrics of the resident to prove the change is theirs');
  if (parts.dedupe.verify && stored.referenceId) {
    const { comment, keep } = await parts.dedupe.verify(registration, stored.referenceId);
    return { kind: 'wait', transactions: [{ statusCode: 'IN_PROGRESS', comment }], keep };
  }
  if (!sharesSample(probe, known)) throw refuse("Individual authentication failed: the biometrics do not match the identity's");
  return next('RPR-BAU-SUCCESS-001', "the resident's biometrics match the identity's");
}

/** An asynchronous 1:1 answer (an ABIS's identify against the identity's reference) as the stage's outcome. */
export const authenticationOutcome = (matched: boolean): StageOutcome =>
  matched
    ? {
        kind: 'next',
        next: 'BIOGRAPHIC_VERIFICATION',
        transactions: [{ statusCode: 'SUCCESS', subStatusCode: 'RPR-BAU-SUCCESS-001', comment: "the resident's biometrics match the identity's" }],
      }
    : {
        kind: 'end',
        status: 'REJECTED',
        transactions: [
          { statusCode: 'REJECTED', subStatusCode: FAILED, comment: "Individual authentication failed: the biometrics do not match the identity's" },
        ],
      };
