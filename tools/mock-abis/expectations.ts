import { readFileSync } from 'node:fs';
import { isFailureReason, type BiometricEntry, type Forced } from './protocol.js';

/**
 * mock-abis "expectations": forced behaviour for requests whose biometrics
 * include a given BDB, keyed by the hex SHA-256 of the decoded BDB. A JSON
 * file holds an array, or an object keyed by digest:
 *
 *   [{ "digest": "<sha256 hex>", "action": "identify", "delayMs": 2000,
 *      "failureReason": "7", "duplicates": ["<referenceId>", ...] }]
 *
 * `action` is `insert`, `identify` or `any` (default). MOSIP's field names are
 * read too: `id` for the digest, `actionToInterfere` (Insert/Identify),
 * `delayInExecution` (seconds), `forcedResponse` `Error` with `errorCode`,
 * `Duplicate` with `gallery.referenceIds[].referenceId`.
 */

export type ExpectationAction = 'insert' | 'identify' | 'any';

export interface Expectation extends Forced {
  digest: string;
  action: ExpectationAction;
}

type Raw = Record<string, unknown>;

const str = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);

function actionOf(raw: Raw): ExpectationAction {
  const value = (str(raw.action) ?? str(raw.actionToInterfere) ?? 'any').toLowerCase();
  if (value === 'insert' || value === 'identify' || value === 'any') return value;
  throw new Error(`an expectation has an unknown action ${value}`);
}

function duplicatesOf(raw: Raw): string[] | undefined {
  if (Array.isArray(raw.duplicates)) return raw.duplicates.map((id) => String(id));
  const gallery = raw.gallery as { referenceIds?: { referenceId?: unknown }[] } | undefined;
  if (str(raw.forcedResponse)?.toLowerCase() === 'duplicate') {
    return (gallery?.referenceIds ?? []).map((each) => str(each?.referenceId)).filter((id): id is string => id !== undefined);
  }
  return undefined;
}

/** One expectation from its JSON form (ours or MOSIP's). */
export function parseExpectation(raw: Raw, key?: string): Expectation {
  const digest = (str(raw.digest) ?? str(raw.id) ?? key ?? '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(digest)) throw new Error(`an expectation needs the hex SHA-256 of a BDB, got ${JSON.stringify(digest)}`);
  const delayMs = raw.delayMs !== undefined ? Number(raw.delayMs) : raw.delayInExecution !== undefined ? Number(raw.delayInExecution) * 1000 : undefined;
  if (delayMs !== undefined && !(Number.isFinite(delayMs) && delayMs >= 0)) throw new Error(`expectation ${digest}: a bad delay`);
  const reason = str(raw.failureReason) ?? (str(raw.forcedResponse)?.toLowerCase() === 'error' ? str(raw.errorCode) : undefined);
  if (reason !== undefined && !isFailureReason(reason)) throw new Error(`expectation ${digest}: unknown failure reason ${reason}`);
  const duplicates = duplicatesOf(raw);
  return {
    digest,
    action: actionOf(raw),
    ...(delayMs !== undefined ? { delayMs } : {}),
    ...(reason !== undefined ? { failureReason: reason } : {}),
    ...(duplicates ? { duplicates } : {}),
  };
}

export function parseExpectations(json: unknown): Expectation[] {
  if (Array.isArray(json)) return json.map((raw) => parseExpectation(raw as Raw));
  if (json && typeof json === 'object') return Object.entries(json as Record<string, Raw>).map(([key, raw]) => parseExpectation(raw, key));
  throw new Error('expectations must be a JSON array or object');
}

export function loadExpectations(file: string): Expectations {
  return new Expectations(parseExpectations(JSON.parse(readFileSync(file, 'utf8'))));
}

export class Expectations {
  private readonly byDigest = new Map<string, Expectation[]>();

  constructor(expectations: Expectation[] = []) {
    for (const expectation of expectations) this.add(expectation);
  }

  add(expectation: Expectation): void {
    const list = this.byDigest.get(expectation.digest) ?? [];
    list.push(expectation);
    this.byDigest.set(expectation.digest, list);
  }

  clear(): void {
    this.byDigest.clear();
  }

  get size(): number {
    let size = 0;
    for (const list of this.byDigest.values()) size += list.length;
    return size;
  }

  /** The first expectation for this operation matching any of these biometrics. */
  match(operation: 'insert' | 'identify', entries: readonly BiometricEntry[]): Forced | undefined {
    for (const entry of entries) {
      const found = this.byDigest.get(entry.digest.toLowerCase())?.find((each) => each.action === 'any' || each.action === operation);
      if (found) {
        const { digest: _digest, action: _action, ...forced } = found;
        return forced;
      }
    }
    return undefined;
  }
}
