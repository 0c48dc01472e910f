/**
 * The pipeline's stages (ABIS.md (e)), each a job kind of the shared runner
 * but manual adjudication, which waits for an adjudicator's decision. A
 * registration's `stage` is the stage it is at; each stage writes one
 * transaction of its own type per attempt.
 */
export const JOB_STAGES = ['UPLOAD_PACKET', 'VALIDATE_PACKET', 'BIOGRAPHIC_VERIFICATION', 'UIN_GENERATOR'] as const;
export type JobStage = (typeof JOB_STAGES)[number];
export type Stage = JobStage | 'MANUAL_ADJUDICATION';

/** The job kind that runs a stage. */
export const STAGE_JOBS = {
  UPLOAD_PACKET: 'regproc.upload-packet',
  VALIDATE_PACKET: 'regproc.validate-packet',
  BIOGRAPHIC_VERIFICATION: 'regproc.deduplicate',
  UIN_GENERATOR: 'regproc.uin-generator',
} as const satisfies Record<JobStage, string>;

export type StageJobKind = (typeof STAGE_JOBS)[JobStage];

declare module '../../../lib/jobs/types.js' {
  interface JobPayloads {
    'regproc.upload-packet': { rid: string };
    'regproc.validate-packet': { rid: string };
    'regproc.deduplicate': { rid: string };
    'regproc.uin-generator': { rid: string };
    /** recurring: registrations in REPROCESS whose time has come go back to their stage */
    'regproc.reprocess': Record<string, never>;
  }
}

/** Statuses in which a stage may still run; the others are final or wait for a person. */
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['PACKET_RECEIVED', 'PROCESSING', 'REPROCESS']);

/** Statuses a registration ends in. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['PROCESSED', 'REJECTED', 'FAILED', 'REPROCESS_FAILED']);

/** One transaction a stage writes (Document 1's record; the type is the stage unless named). */
export interface StageTransaction {
  type?: string;
  statusCode: 'SUCCESS' | 'FAILED' | 'IN_PROGRESS' | 'ERROR' | 'REPROCESS' | 'PROCESSED' | 'REJECTED' | 'REPROCESS_FAILED';
  subStatusCode?: string;
  comment: string;
}

/** The registration a stage works on, as the rules read it. */
export interface StageRegistration {
  rid: string;
  centreId: string;
  machineId: string;
  registrationType: string;
  supervisorStatus: string;
  langCode: string;
  status: string;
  stage: string | null;
  attempts: number;
  bioRefId: string | null;
  /** the stored packet's key in the object store */
  packetKey: string | null;
}

/** A possible duplicate found by de-duplication, for an adjudicator. */
export interface Candidate {
  rid: string;
  /** RID: another registration, as MOSIP's gallery names it */
  refType: 'RID';
  reasonCode: string;
}

/**
 * A refusal that no retry changes (a packet that cannot be opened, a failed
 * validation): the registration ends in `status`. Any other error of a
 * stage is the platform's (a store out of reach) and the stage is run again
 * later (REPROCESS).
 */
export class StageRejection extends Error {
  constructor(
    readonly status: 'REJECTED' | 'FAILED',
    message: string,
    readonly subStatusCode?: string,
  ) {
    super(message);
  }
}
