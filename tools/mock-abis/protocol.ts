/**
 * The ABIS request/reply protocol of ABIS.md (b), as mock-abis validates it:
 * id 14, version 13, requestId 6, requesttime 9, format 15, referenceId 5,
 * referenceURL 8 (insert), duplicate 10, fetch 7 / expired 17, CBEFF 16 / 11;
 * unknown fields 4. Pure functions over a store interface: no queue, no HTTP.
 */

import { galleryOf, identifyCandidates, maxResultsOf } from './identify.js';
import type { BiometricEntry, ReferenceStore } from './references.js';

export type { BiometricEntry, Modality, ReferenceStore, StoredReference } from './references.js';

/** A data share fetched and read: its biometrics, or the failure reason (7, 17, 16, 11). */
export type FetchResult = { entries: BiometricEntry[] } | { failureReason: FailureReason };

/** What an expectation (expectations.ts) forces for a request whose biometrics it matches. */
export interface Forced {
  delayMs?: number;
  failureReason?: FailureReason;
  /** identify: these referenceIds are the candidates */
  duplicates?: string[];
}

export interface ProtocolContext {
  store: ReferenceStore;
  /** fetches and decrypts `referenceURL`, parses its CBEFF */
  fetchBiometrics(url: string): Promise<FetchResult>;
  /** requests received and not yet answered, this one excluded */
  pendingJobs?(): number;
  /** forced behaviour for these biometrics (operation `insert` or `identify`), if any */
  expectation?(operation: 'insert' | 'identify', entries: BiometricEntry[]): Forced | undefined;
  now?(): Date;
  sleep?(ms: number): Promise<void>;
}

export const OPERATIONS = ['insert', 'identify', 'delete', 'ping', 'pendingJobs', 'referenceCount'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** MOSIP ABIS failure reasons (ABIS API 0.9); 18 exists in the docs only. */
export const FAILURE_REASONS = {
  '1': 'internal error - unknown',
  '2': 'aborted',
  '3': 'unexpected error',
  '4': 'unable to serve the request - invalid request structure',
  '5': 'missing referenceId (in request body)',
  '6': 'missing requestId (in request body)',
  '7': 'unable to fetch biometric details (using referenceURL)',
  '8': 'missing reference URL (in request body)',
  '9': 'missing requesttime (in request body)',
  '10': 'referenceId already exists (in ABIS)',
  '11': 'CBEFF has no data',
  '12': 'referenceId not found (in ABIS)',
  '13': 'invalid version',
  '14': 'invalid id',
  '15': 'invalid requesttime format',
  '16': 'invalid CBEFF format',
  '17': 'data share URL has expired',
} as const;
export type FailureReason = keyof typeof FAILURE_REASONS;

export const isFailureReason = (value: unknown): value is FailureReason => typeof value === 'string' && Object.hasOwn(FAILURE_REASONS, value);

/** The prefixes accepted in `id`: the platform's and MOSIP's. */
export const ID_PREFIXES = ['platform.abis.', 'mosip.abis.'] as const;
export const VERSION = '1.1';

/** Fields each operation may carry besides id, version, requestId, requesttime. */
const OPERATION_FIELDS: Readonly<Record<Operation, readonly string[]>> = {
  insert: ['referenceId', 'referenceURL', 'referenceUrl'],
  identify: ['referenceId', 'referenceURL', 'referenceUrl', 'flags', 'gallery'],
  delete: ['referenceId'],
  ping: [],
  pendingJobs: [],
  referenceCount: [],
};
const COMMON_FIELDS = ['id', 'version', 'requestId', 'requesttime'];

/** `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` (UTC), a real instant. */
const TIME_FORMAT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z$/;

export function formatTime(date: Date): string {
  return date.toISOString(); // always yyyy-MM-ddTHH:mm:ss.SSSZ for years 0000..9999
}

export function isValidTime(text: string): boolean {
  const match = TIME_FORMAT.exec(text);
  if (!match) return false;
  const date = new Date(text);
  return !Number.isNaN(date.getTime()) && date.toISOString() === text;
}

export type Reply = Record<string, unknown> & {
  id: string | null;
  requestId: string | null;
  responsetime: string;
  returnValue: '1' | '2';
  failureReason?: FailureReason;
};

/** A request's JSON, or why it is none (not JSON, not an object): reason 4. */
export type ParsedRequest = { ok: true; request: Record<string, unknown> } | { ok: false; failureReason: '4' };

export function parseRequest(body: Buffer | string): ParsedRequest {
  let text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, request: value as Record<string, unknown> };
  } catch {
    // below
  }
  return { ok: false, failureReason: '4' };
}

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const present = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The operation named by `id`, or undefined (reason 14). */
export function operationOf(id: unknown): Operation | undefined {
  if (typeof id !== 'string') return undefined;
  const prefix = ID_PREFIXES.find((each) => id.startsWith(each));
  const op = prefix ? id.slice(prefix.length) : undefined;
  return (OPERATIONS as readonly string[]).includes(op ?? '') ? (op as Operation) : undefined;
}

/** Fields of `request` its operation does not know (reason 4). */
export function unknownFields(request: Record<string, unknown>, op: Operation): string[] {
  const known = new Set([...COMMON_FIELDS, ...OPERATION_FIELDS[op]]);
  return Object.keys(request).filter((key) => !known.has(key));
}

/** The request's `referenceURL` (or `referenceUrl`, as MOSIP's identify DTO spells it). */
const referenceUrlOf = (request: Record<string, unknown>): string | undefined => stringOf(request.referenceURL) ?? stringOf(request.referenceUrl);

export interface ReplyBase {
  id: string | null;
  requestId: string | null;
  now: Date;
}

export function success(base: ReplyBase, extra: Record<string, unknown> = {}): Reply {
  return { id: base.id, requestId: base.requestId, responsetime: formatTime(base.now), returnValue: '1', ...extra };
}

export function failure(base: ReplyBase, failureReason: FailureReason): Reply {
  return { id: base.id, requestId: base.requestId, responsetime: formatTime(base.now), returnValue: '2', failureReason };
}

/**
 * Validates the envelope in mock-abis's order; undefined when it passes.
 * Returns the first failing reason: id 14, version 13, requestId 6, requesttime 9, format 15.
 */
export function validateEnvelope(request: Record<string, unknown>): FailureReason | undefined {
  if (!operationOf(request.id)) return '14';
  if (request.version !== VERSION) return '13';
  if (!present(request.requestId)) return '6';
  if (!present(request.requesttime)) return '9';
  if (!isValidTime(request.requesttime)) return '15';
  return undefined;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Applies an expectation's delay, then returns its forced failure reason, if any. */
async function applyForced(context: ProtocolContext, forced: Forced | undefined): Promise<FailureReason | undefined> {
  if (forced?.delayMs && forced.delayMs > 0) await (context.sleep ?? defaultSleep)(forced.delayMs);
  return forced?.failureReason;
}

/**
 * Serves one request body and returns the reply. Never throws for a bad
 * request: every failure is a reply with returnValue "2". A store or fetch
 * that throws yields reason 3 (unexpected error).
 */
export async function handleRequest(body: Buffer | string, context: ProtocolContext): Promise<Reply> {
  const now = () => (context.now ?? (() => new Date()))();
  const parsed = parseRequest(body);
  if (!parsed.ok) return failure({ id: null, requestId: null, now: now() }, parsed.failureReason);
  const request = parsed.request;
  const base = (): ReplyBase => ({ id: stringOf(request.id) ?? null, requestId: stringOf(request.requestId) ?? null, now: now() });
  try {
    return await serve(request, context, base);
  } catch {
    return failure(base(), '3');
  }
}

async function serve(request: Record<string, unknown>, context: ProtocolContext, base: () => ReplyBase): Promise<Reply> {
  const envelopeFailure = validateEnvelope(request);
  if (envelopeFailure) return failure(base(), envelopeFailure);
  const op = operationOf(request.id)!;
  const structureOk = () => unknownFields(request, op).length === 0;
  const store = context.store;
  const referenceId = stringOf(request.referenceId);
  const hasReferenceId = present(referenceId);

  switch (op) {
    case 'ping':
      return structureOk() ? success(base()) : failure(base(), '4');
    case 'pendingJobs':
      return structureOk() ? success(base(), { jobscount: String(context.pendingJobs?.() ?? 0) }) : failure(base(), '4');
    case 'referenceCount':
      return structureOk() ? success(base(), { count: String(store.count()) }) : failure(base(), '4');
    case 'delete': {
      if (!hasReferenceId) return failure(base(), '5');
      if (!store.get(referenceId)) return failure(base(), '12');
      if (!structureOk()) return failure(base(), '4');
      await store.delete(referenceId);
      return success(base());
    }
    case 'insert': {
      if (!hasReferenceId) return failure(base(), '5');
      const url = referenceUrlOf(request);
      if (!present(url)) return failure(base(), '8');
      if (store.get(referenceId)) return failure(base(), '10');
      const fetched = await context.fetchBiometrics(url);
      if ('failureReason' in fetched) return failure(base(), fetched.failureReason);
      if (!structureOk()) return failure(base(), '4');
      const forcedReason = await applyForced(context, context.expectation?.('insert', fetched.entries));
      if (forcedReason) return failure(base(), forcedReason);
      // A concurrent insert of the same id may have won meanwhile.
      if (store.get(referenceId)) return failure(base(), '10');
      await store.insert(referenceId, fetched.entries);
      return success(base());
    }
    case 'identify': {
      const url = referenceUrlOf(request);
      let probe: BiometricEntry[];
      if (hasReferenceId) {
        const stored = store.get(referenceId);
        if (!stored) return failure(base(), '12');
        probe = stored.entries;
      } else if (present(url)) {
        const fetched = await context.fetchBiometrics(url);
        if ('failureReason' in fetched) return failure(base(), fetched.failureReason);
        probe = fetched.entries;
      } else {
        return failure(base(), '5');
      }
      const gallery = galleryOf(request.gallery);
      if (!structureOk() || gallery === null) return failure(base(), '4');
      const forced = context.expectation?.('identify', probe);
      const forcedReason = await applyForced(context, forced);
      if (forcedReason) return failure(base(), forcedReason);
      const candidateList = identifyCandidates(store, {
        probeId: hasReferenceId ? referenceId : undefined,
        probe,
        gallery,
        maxResults: maxResultsOf(request.flags),
        forced: forced?.duplicates,
      });
      return success(base(), { candidateList });
    }
  }
}
