// What the simulator keeps of each packet and reports of a run (simulator.ts).

export const FINAL_STATUSES = ['PROCESSED', 'REJECTED', 'FAILED', 'REPROCESS_FAILED'] as const;
/**
 * Where a registration the de-duplication held waits for an adjudicator, its
 * status PROCESSING: the end of the run for a packet sent as a duplicate.
 */
export const ADJUDICATION_STAGE = 'MANUAL_ADJUDICATION';

/** Statuses the simulator gives packets that never reached the pipeline. */
export const SYNC_FAILED = 'SYNC_FAILED';
export const UPLOAD_FAILED = 'UPLOAD_FAILED';
export interface PacketTrack {
  registrationId: string;
  status: string;
  uploadedAt?: number;
  /** when it reached an end: a final status, or (a duplicate) manual adjudication */
  finalAt?: number;
  /** why it failed before the pipeline (sync or upload), code and message, never personal data */
  problem?: string;
  /** planned as a copy of an earlier resident's biometrics */
  duplicate?: boolean;
  /** a duplicate seen at MANUAL_ADJUDICATION (its status stays PROCESSING): its end for the run */
  adjudication?: boolean;
}

export interface SimulationSummary {
  count: number;
  duplicates: number;
  synced: number;
  uploaded: number;
  /** packets per last known status (SYNC_FAILED and UPLOAD_FAILED for those that never reached the pipeline) */
  statuses: Record<string, number>;
  final: number;
  processed: number;
  /** duplicates waiting for an adjudicator, the end a de-duplication gives them */
  adjudication: number;
  /** those per status (PROCESSING, as the pipeline leaves them) */
  adjudicationStatuses: Record<string, number>;
  timedOut: boolean;
  /** from the first upload to the last end (a final status, or a duplicate in adjudication) */
  seconds: number | null;
  /** packets at an end per second */
  packetsPerSecond: number | null;
  /** the first few sync and upload failures */
  problems: string[];
  /** every duplicate in adjudication and every other packet PROCESSED (with --prereg: every resident but the duplicates fetched, every PROCESSED one's application Consumed) */
  ok: boolean;
  /** --prereg: residents booked, listed by the centre's sync, fetched for the machine; applications Consumed of those whose packet was PROCESSED */
  preRegistration?: { booked: number; synced: number; fetched: number; consumed: number; processed: number };
}

export const isFinal = (status: string) => (FINAL_STATUSES as readonly string[]).includes(status);
/** Where the run stops following a packet. */
export const hasEnded = (track: PacketTrack) => isFinal(track.status) || track.adjudication === true;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

const tally = (tracks: readonly PacketTrack[]) => {
  const counts: Record<string, number> = {};
  for (const track of tracks) counts[track.status] = (counts[track.status] ?? 0) + 1;
  return counts;
};

/** The summary of a run: counts per status and throughput from the first upload to the last end. */
export function summarise(tracks: readonly PacketTrack[], duplicates: number, timedOut: boolean): SimulationSummary {
  const statuses = tally(tracks);
  const adjudicationStatuses = tally(tracks.filter((track) => track.adjudication));
  const adjudication = Object.values(adjudicationStatuses).reduce((sum, n) => sum + n, 0);
  // Loops, not Math.min(...spread): a run may hold more packets than a call takes arguments.
  let firstUpload = Infinity;
  let lastEnd = -Infinity;
  let uploaded = 0;
  for (const track of tracks) {
    if (track.uploadedAt !== undefined) {
      uploaded++;
      firstUpload = Math.min(firstUpload, track.uploadedAt);
    }
    if (track.finalAt !== undefined) lastEnd = Math.max(lastEnd, track.finalAt);
  }
  const final = tracks.filter((track) => isFinal(track.status)).length;
  const seconds = uploaded && lastEnd > -Infinity ? (lastEnd - firstUpload) / 1000 : null;
  const processed = statuses.PROCESSED ?? 0;
  return {
    count: tracks.length,
    duplicates,
    synced: tracks.filter((track) => track.status !== SYNC_FAILED).length,
    uploaded,
    statuses,
    final,
    processed,
    adjudication,
    adjudicationStatuses,
    timedOut,
    seconds: seconds === null ? null : round(seconds, 3),
    packetsPerSecond: seconds ? round(tracks.filter(hasEnded).length / seconds) : null,
    problems: tracks.flatMap((track) => (track.problem ? [`${track.registrationId}: ${track.problem}`] : [])).slice(0, 20),
    ok: tracks.length > 0 && tracks.every((track) => (track.duplicate ? track.adjudication === true : track.status === 'PROCESSED')),
  };
}

/** The run as `npm run simulate` prints it (without --json). */
export function reportLines(summary: SimulationSummary, run: { abis: boolean; timeoutSeconds: number }): string[] {
  const lines = [`\n${summary.count} packets (${summary.duplicates} with copied biometrics): ${summary.final} final, ${summary.processed} PROCESSED`];
  if (summary.duplicates) lines.push(`${summary.adjudication} sent to manual adjudication (duplicates found by the ${run.abis ? 'ABIS' : 'de-duplication'})`);
  for (const [status, n] of Object.entries(summary.statuses)) {
    const waiting = summary.adjudicationStatuses[status];
    lines.push(`  ${status.padEnd(18)} ${n}${waiting ? ` (${waiting} in manual adjudication)` : ''}`);
  }
  if (summary.packetsPerSecond !== null) lines.push(`${summary.packetsPerSecond} packets/s over ${summary.seconds} s (first upload to last end)`);
  const prereg = summary.preRegistration;
  if (prereg)
    lines.push(
      `pre-registration: ${prereg.booked} booked, ${prereg.synced} synced, ${prereg.fetched} fetched; ${prereg.consumed} of ${prereg.processed} consumed`,
    );
  if (summary.timedOut) lines.push(`timed out after ${run.timeoutSeconds} s waiting for final statuses`);
  return [...lines, ...summary.problems.map((problem) => `  ${problem}`)];
}
