import { formatTimestamp } from '../../../lib/time.js';

/** The six ABIS operations (ABIS.md (b)): the pipeline's insert, identify and delete, and an operator's three questions. */
export const ABIS_OPERATIONS = ['INSERT', 'IDENTIFY', 'DELETE', 'PING', 'PENDING_JOBS', 'REFERENCE_COUNT'] as const;
export type AbisOperation = (typeof ABIS_OPERATIONS)[number];

/** What an operator may ask an ABIS: answered with no effect on any registration. */
export const ABIS_QUESTIONS = ['PING', 'PENDING_JOBS', 'REFERENCE_COUNT'] as const satisfies readonly AbisOperation[];
export type AbisQuestion = (typeof ABIS_QUESTIONS)[number];

export const ABIS_REQUEST_STATUSES = ['IN_PROGRESS', 'SENT', 'PROCESSED', 'ALREADY_PROCESSED', 'FAILED'] as const;
export type AbisRequestStatus = (typeof ABIS_REQUEST_STATUSES)[number];

/** The message `id` of each operation (MOSIP's `mosip.abis.<op>`). */
export const OPERATION_IDS: Readonly<Record<AbisOperation, string>> = {
  INSERT: 'platform.abis.insert',
  IDENTIFY: 'platform.abis.identify',
  DELETE: 'platform.abis.delete',
  PING: 'platform.abis.ping',
  PENDING_JOBS: 'platform.abis.pendingJobs',
  REFERENCE_COUNT: 'platform.abis.referenceCount',
};

export const isQuestion = (operation: string): operation is AbisQuestion => (ABIS_QUESTIONS as readonly string[]).includes(operation);

/** MOSIP's audit codes of a reply to a request already answered (AbisMiddleWareStage); the other operations have none of their own. */
export const DUPLICATE_REPLY_CODES: Partial<Record<string, string>> = { INSERT: 'RPR-ABIS-MIDDLEWARE-009', IDENTIFY: 'RPR-ABIS-MIDDLEWARE-010' };

/** The references an identify's gallery holds, as stored (a JSON list of ids); none when it searches the whole database. */
export const galleryOf = (gallery: unknown): string[] =>
  Array.isArray(gallery) ? gallery.filter((id): id is string => typeof id === 'string').map((id) => id.toLowerCase()) : [];

/** A request as it is sent: the fields of ABIS.md (b), strings but an identify's `gallery` {referenceIds: [{referenceId}]}. */
export function requestMessage(
  row: { id: string; operation: string; referenceId: string | null; referenceUrl: string | null; gallery?: unknown },
  now: Date,
): Record<string, unknown> {
  const operation = row.operation as AbisOperation;
  const message: Record<string, unknown> = { id: OPERATION_IDS[operation], version: '1.1', requestId: row.id, requesttime: formatTimestamp(now) };
  if (operation === 'INSERT' || operation === 'IDENTIFY' || operation === 'DELETE') message.referenceId = row.referenceId ?? '';
  // An identify names its probe by reference (the ABIS holds it since the insert): the URL is sent empty, as MOSIP does.
  if (operation === 'INSERT') message.referenceURL = row.referenceUrl ?? '';
  if (operation === 'IDENTIFY') message.referenceURL = '';
  const gallery = galleryOf(row.gallery);
  // MOSIP's ABIS interface: an identify with a gallery compares the probe with those references only (a 1:1 when there is one).
  if (operation === 'IDENTIFY' && gallery.length) message.gallery = { referenceIds: gallery.map((referenceId) => ({ referenceId })) };
  return message;
}

/** A reply as received: any JSON object; the fields the platform reads are checked where they are read. */
export interface Reply {
  id?: unknown;
  requestId?: unknown;
  returnValue?: unknown;
  failureReason?: unknown;
  jobscount?: unknown;
  count?: unknown;
  candidateList?: { candidates?: { referenceId?: unknown }[] };
}

/** A reply field as text: ABIS.md's fields are strings; a number an ABIS sends is read as its digits, anything else as absent. */
export const scalar = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

/** The reply's body as an object, or null when it is not a JSON object. */
export function parseReply(body: Buffer): Reply | null {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The answer a question's reply carries: pendingJobs' `jobscount`, referenceCount's `count`. */
export function answerOf(operation: string, reply: Reply): string | null {
  if (operation === 'PENDING_JOBS') return scalar(reply.jobscount);
  if (operation === 'REFERENCE_COUNT') return scalar(reply.count);
  return null;
}
