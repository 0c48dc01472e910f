import { FieldCipher, type KeyRingStorage, type KeySealer } from '../../lib/crypto/field-cipher.js';
import type { Clock } from '../../lib/time.js';
import { requestErrors } from './errors.js';

/** The key store's key that seals pre-registration's keys (MOSIP's preregistration.crypto.applicationId/referenceId). */
export const PREREG_SEALING_KEY = { applicationId: 'PRE_REGISTRATION', referenceId: 'INDIVIDUAL' };

/**
 * Pre-registration's field encryption, as the ID repository's: demographic
 * data and documents under AES-256-GCM keys sealed by the key store's
 * PRE_REGISTRATION key; a value that cannot be opened is PRG_PAM_CORE_012
 * (an area answering for a document's bytes turns it into PRG_CORE_REQ_012).
 */
export class PreregCipher extends FieldCipher {
  constructor(store: KeyRingStorage, keys: KeySealer, clock: Clock) {
    super(store, keys, clock, PREREG_SEALING_KEY, () => requestErrors.decrypt('metadata'));
  }
}
