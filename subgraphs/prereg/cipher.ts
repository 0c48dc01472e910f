import { FieldCipher, type KeyRingStorage, type KeySealer } from '../../lib/crypto/field-cipher.js';
import type { Clock } from '../../lib/time.js';
import { PREREG_APPLICATION } from '../keys/policy.js';
import { requestErrors } from './errors.js';

/**
 * The key store's key that seals pre-registration's keys: its own, out of the
 * crypto manager's reach (MOSIP seals with PRE_REGISTRATION, which the crypto
 * manager serves to its administrators: a second door to every application).
 */
export const PREREG_SEALING_KEY = { applicationId: PREREG_APPLICATION, referenceId: '' };

/**
 * Pre-registration's field encryption, as the ID repository's: demographic
 * data and documents under AES-256-GCM keys sealed by the key store's
 * PREREG key; a value that cannot be opened is PRG_PAM_CORE_012
 * (an area answering for a document's bytes turns it into PRG_CORE_REQ_012).
 */
export class PreregCipher extends FieldCipher {
  constructor(store: KeyRingStorage, keys: KeySealer, clock: Clock) {
    super(store, keys, clock, PREREG_SEALING_KEY, () => requestErrors.decrypt('metadata'));
  }
}
