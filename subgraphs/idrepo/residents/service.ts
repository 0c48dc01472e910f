import type { IdrepoCipher } from '../cipher.js';
import type { IdentityRow, IdentityService } from '../identities/service.js';
import { violations, type NumberRules } from '../../../lib/numbers.js';
import type { VidService } from '../vids/service.js';

// The authentication manager issues residents' tokens with this subject type.
export { RESIDENT_SUBJECT } from '../callers.js';

/** How a resident named themselves: by UIN, or by one of their VIDs. */
export type ResidentIdType = 'UIN' | 'VID';

/** Where a resident's login OTP goes, read from their identity. */
export interface ResidentContact {
  identityId: string;
  email: string | null;
  phone: string | null;
  /** their name in the identity's first language, for the message */
  name: string | null;
  /** that language, for the message's template */
  langCode: string | null;
}

/** Who reads a resident's contact details, in the identity's audit trail. */
const CONTACT_READER = { subject: 'authmanager', roles: [] as string[] };

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** The first entry of a multilingual attribute ([{language, value}]), or a plain string. */
function firstLanguage(value: unknown): { value: string | null; language: string | null } {
  if (Array.isArray(value)) {
    const entry = value.find((item): item is { language?: unknown; value?: unknown } => typeof item === 'object' && item !== null);
    return { value: text(entry?.value), language: text(entry?.language) };
  }
  return { value: text(value), language: null };
}

/**
 * Residents as the authentication manager sees them (MOSIP's UIN details for
 * `useridtype` UIN): a UIN or a usable VID names an ACTIVATED identity, whose
 * e-mail and phone receive the login OTP. A resident's token then speaks for
 * the identity by its opaque id: no session, token or counter row holds the
 * number in clear.
 */
export class ResidentDirectory {
  constructor(
    private readonly cipher: Pick<IdrepoCipher, 'lookup'>,
    private readonly identities: Pick<IdentityService, 'byUin' | 'identityOf' | 'audit'>,
    private readonly vids: Pick<VidService, 'identityOfVid'>,
    private readonly rules: { uin: NumberRules; vid: NumberRules },
  ) {}

  /** UIN or VID when the number follows that kind's rules; undefined for anything else. */
  idTypeOf(number: string): ResidentIdType | undefined {
    const value = number.trim();
    if (!violations(value, this.rules.uin).length) return 'UIN';
    if (!violations(value, this.rules.vid).length) return 'VID';
    return undefined;
  }

  /** A stand-in for the number where it must be counted or keyed (its look-up HMAC): equal numbers, equal keys, and nothing to read back. */
  keyOf(number: string): string {
    return this.cipher.lookup(number.trim());
  }

  /** The ACTIVATED identity a UIN or an ACTIVE, unexpired VID names; undefined for any other number. */
  async find(number: string): Promise<{ identity: IdentityRow; via: ResidentIdType } | undefined> {
    const via = this.idTypeOf(number);
    if (!via) return undefined;
    const identity = via === 'UIN' ? await this.identities.byUin(number.trim()) : await this.vids.identityOfVid(number.trim(), 'usable');
    return identity?.status === 'ACTIVATED' ? { identity, via } : undefined;
  }

  /** The contact details of the resident a number names, the read audited; undefined when it names none. */
  async contact(number: string): Promise<ResidentContact | undefined> {
    const found = await this.find(number);
    if (!found) return undefined;
    const identity = await this.identities.identityOf(found.identity);
    await this.identities.audit(CONTACT_READER, found.identity.id, ['contact'], found.via);
    const name = firstLanguage(identity.fullName);
    return { identityId: found.identity.id, email: text(identity.email), phone: text(identity.phone), name: name.value, langCode: name.language };
  }
}
