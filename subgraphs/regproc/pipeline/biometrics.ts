import { bdbDigests, parseCbeff } from '../../../lib/packet/cbeff.js';
import { PacketFormatError } from '../../../lib/packet/errors.js';
import { StageRejection, type TransactionType } from './stages.js';

/**
 * The SHA-256 of each biometric sample of a CBEFF (exceptions left out). A
 * packet's CBEFF that cannot be read is the packet's own fault: REJECTED,
 * recorded under `transactionType` when given.
 */
export function sampleDigests(cbeff: Buffer, what: string, transactionType?: TransactionType): string[] {
  try {
    return bdbDigests(parseCbeff(cbeff));
  } catch (error) {
    if (error instanceof PacketFormatError)
      throw new StageRejection('REJECTED', `${what} cannot be read: ${error.message}`, 'BIOMETRICS_UNREADABLE', transactionType);
    throw error;
  }
}

/** The samples of a stored CBEFF, or none when it cannot be read (the repository holds what the platform validated). */
export function storedDigests(cbeff: Buffer | null): Set<string> {
  if (!cbeff) return new Set();
  try {
    return new Set(bdbDigests(parseCbeff(cbeff)));
  } catch (error) {
    if (error instanceof PacketFormatError) return new Set();
    throw error;
  }
}

/**
 * The platform's own 1:1 matcher: a probe matches when one of its samples is
 * one of the stored person's. Like the local de-duplication it knows exact
 * copies only; a deployment matching fresh captures uses the ABIS.
 */
export const sharesSample = (probe: readonly string[], stored: ReadonlySet<string>): boolean => probe.some((digest) => stored.has(digest));
