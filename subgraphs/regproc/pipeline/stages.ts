import type { JobTx } from '../../../lib/jobs/types.js';
import { REGISTRATION_STAGES } from '../registrations/inputs.js';

/**
 * The pipeline's stages (ABIS.md (e)), each a job kind of the shared runner
 * but manual adjudication, which waits for an adjudicator's decision. A
 * registration's `stage` is the stage it is at; each stage writes one
 * transaction of its own type per attempt.
 */
export const JOB_STAGES = ['UPLOAD_PACKET', 'VALIDATE_PACKET', 'BIOMETRIC_AUTHENTICATION', 'BIOGRAPHIC_VERIFICATION', 'UIN_GENERATOR'] as const;
export type JobStage = (typeof JOB_STAGES)[number];
export type Stage = JobStage | 'MANUAL_ADJUDICATION';

/** The job kind that runs a stage. */
export const STAGE_JOBS = {
  UPLOAD_PACKET: 'regproc.upload-packet',
  VALIDATE_PACKET: 'regproc.validate-packet',
  BIOMETRIC_AUTHENTICATION: 'regproc.authenticate-biometrics',
  BIOGRAPHIC_VERIFICATION: 'regproc.deduplicate',
  UIN_GENERATOR: 'regproc.uin-generator',
} as const satisfies Record<JobStage, string>;

export type StageJobKind = (typeof STAGE_JOBS)[JobStage];

declare module '../../../lib/jobs/types.js' {
  interface JobPayloads {
    'regproc.upload-packet': { rid: string };
    'regproc.validate-packet': { rid: string };
    'regproc.authenticate-biometrics': { rid: string };
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

/** What a transaction records: a stage's own work, or one of the steps around and within the stages (the graph's enum). */
export const TRANSACTION_TYPES = [
  ...REGISTRATION_STAGES,
  'VIRUS_SCAN',
  'CMD_VALIDATION',
  'OPERATOR_VALIDATION',
  'SUPERVISOR_VALIDATION',
  'PACKET_REPROCESS',
  'WORKFLOW_RESUME',
  'PRINT_SERVICE',
  'NOTIFICATION',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Where a transaction left its step (the graph's enum). */
export const TRANSACTION_STATUSES = [
  'SUCCESS',
  'FAILED',
  'IN_PROGRESS',
  'ERROR',
  'REPROCESS',
  'PROCESSED',
  'REJECTED',
  'PROCESSING',
  'REPROCESS_FAILED',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** One transaction a stage writes (Document 1's record; the type is the stage unless named). */
export interface StageTransaction {
  type?: TransactionType;
  statusCode: Exclude<TransactionStatus, 'PROCESSING'>;
  subStatusCode?: string;
  comment: string;
}

/** The registration a stage works on, as the rules read it. */
export interface StageRegistration {
  rid: string;
  centreId: string;
  machineId: string;
  registrationType: string;
  /** CLIENT (synced and uploaded) or REQUEST_HANDLER (made by the platform itself) */
  origin: string;
  /** when the client synced it */
  createdAt: Date;
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
 * validation): the registration ends in `status`. The refusal is recorded
 * under `transactionType` (the stage's own by default), after the checks of
 * the stage that `passed` (each its own transaction). Any other error of a
 * stage is the platform's (a store out of reach) and the stage is run again
 * later (REPROCESS).
 */
export class StageRejection extends Error {
  constructor(
    readonly status: 'REJECTED' | 'FAILED',
    message: string,
    readonly subStatusCode?: string,
    readonly transactionType?: TransactionType,
    readonly passed: readonly StageTransaction[] = [],
  ) {
    super(message);
  }
}

/**
 * A failure of the platform's own with a message safe to show an operator
 * (an object store without the packet, an ABIS's failed reply): the stage
 * runs again later, unless it is `final` (no retry would change it: an admin
 * resumes it). Any other error's text stays in the log.
 */
export class StageFault extends Error {
  constructor(
    message: string,
    readonly final = false,
  ) {
    super(message);
  }
}

/** What a stage decided: the next stage, a wait, or an end; with its transactions and what to write with them. */
export type StageOutcome = {
  transactions: StageTransaction[];
  /** written in the transaction that records the outcome (digests, candidates, the notification) */
  keep?: (tx: JobTx, now: Date) => Promise<void>;
  bioRefId?: string;
  /** possible duplicates for manual adjudication */
  candidates?: Candidate[];
} & ({ kind: 'next'; next: Stage } | { kind: 'wait' } | { kind: 'end'; status: 'PROCESSED' | 'REJECTED' });
