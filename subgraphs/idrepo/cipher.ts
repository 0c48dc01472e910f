import type { Clock } from '../../lib/time.js';
import { FieldCipher, type KeyRingStorage, type KeySealer } from '../../lib/crypto/field-cipher.js';
import { IDREPO_APPLICATION } from '../keys/policy.js';
import { idrepoErrors } from './errors.js';

/** The ID repository's field encryption: its keys sealed by the key store's IDREPO key; a value that cannot be opened is IDR-IDS-003. */
export class IdrepoCipher extends FieldCipher {
  constructor(store: KeyRingStorage, keys: KeySealer, clock: Clock) {
    super(store, keys, clock, { applicationId: IDREPO_APPLICATION, referenceId: '' }, (why) => idrepoErrors.crypto(why));
  }
}
