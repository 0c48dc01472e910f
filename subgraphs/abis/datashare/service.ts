import { randomInt, X509Certificate } from 'node:crypto';
import { encodeBase64Url, encryptLegacy, encryptVerR2, type RecipientKey } from '../../../lib/crypto/envelope.js';
import { PlatformError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/time.js';
import { abisErrors } from '../errors.js';
import type { AbisSettings } from '../settings.js';
import type { DataShareStorage } from './storage.js';

/** What the data share needs of other components: a registration's CBEFF (exceptions out) and the subscriber's certificate. */
export interface DataShareParts {
  /** the CBEFF of the registration, exception biometrics left out; null when it has none */
  cbeffOf(rid: string): Promise<Buffer | null>;
  /** the subscriber's uploaded certificate (PEM); throws when it has none */
  certificateOf(subscriberId: string): Promise<string>;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const stamp = (date: Date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 14);

/**
 * Data shares (ABIS.md (c)): an address an ABIS fetches a registration's
 * biometrics from, valid for ABIS_DATASHARE_VALID_MINUTES and
 * ABIS_DATASHARE_TRANSACTIONS_ALLOWED fetches. The CBEFF is encrypted for the
 * subscriber's uploaded certificate when it is fetched, in the VER_R2 or
 * LEGACY layout, and served as base64 text; it is never stored.
 */
export class DataShareService {
  constructor(
    private readonly store: DataShareStorage,
    private readonly parts: DataShareParts,
    private readonly clock: Clock,
    private readonly settings: Pick<AbisSettings, 'partnerId' | 'policyId' | 'dataShareLayout' | 'dataShareValidMinutes' | 'dataShareTransactions'>,
    /** the platform's public address (PLATFORM_PUBLIC_URL) */
    private readonly baseUrl: string,
  ) {}

  /**
   * A new share of a registration's biometrics for a subscriber (the ABIS's
   * partner by default): its address. Refused when the subscriber has no
   * certificate, which the caller treats as the platform's failure.
   */
  async create(rid: string, subscriberId = this.settings.partnerId): Promise<{ shareKey: string; url: string }> {
    await this.parts.certificateOf(subscriberId);
    const now = this.clock.now();
    const { policyId } = this.settings;
    const random = Array.from({ length: 8 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
    const shareKey = `${subscriberId}${policyId}${stamp(now)}${random}`;
    await this.store.create({
      shareKey,
      policyId,
      subscriberId,
      rid,
      expiresAt: new Date(now.getTime() + this.settings.dataShareValidMinutes * 60_000),
      transactionsLeft: this.settings.dataShareTransactions,
      createdAt: now,
    });
    return {
      shareKey,
      url: `${this.baseUrl}/v1/datashare/get/${encodeURIComponent(policyId)}/${encodeURIComponent(subscriberId)}/${encodeURIComponent(shareKey)}`,
    };
  }

  /** GET /v1/datashare/get/{policyId}/{subscriberId}/{shareKey}: the encrypted CBEFF as base64 text (URL-safe with padding for VER_R2). */
  async fetch(policyId: string, subscriberId: string, shareKey: string): Promise<string> {
    const share = await this.store.find(shareKey);
    if (!share || share.policyId !== policyId || share.subscriberId !== subscriberId) throw abisErrors.notFound();
    if (!(await this.store.consume(shareKey, this.clock.now()))) throw abisErrors.expired();
    const cbeff = await this.parts.cbeffOf(share.rid);
    if (!cbeff) throw abisErrors.noFile();
    const recipient = await this.recipientOf(subscriberId);
    if (!recipient) throw abisErrors.noFile();
    return this.sealed(recipient, cbeff);
  }

  /**
   * GET bio-dedupe/biometricfile: the registration's CBEFF served by the rules
   * of a live share the platform made of it for the ABIS (not expired, a fetch
   * left), that fetch counted against the share and the CBEFF encrypted as
   * fetch encrypts it. Null, and nothing counted, when it has no live share or
   * nothing to serve.
   */
  async fetchOfRegistration(rid: string): Promise<string | null> {
    const { partnerId, policyId } = this.settings;
    const now = this.clock.now();
    const live = await this.store.live(rid, policyId, partnerId, now);
    if (!live.length) return null;
    // Read before a fetch is counted: a refusal spends nothing.
    const cbeff = await this.parts.cbeffOf(rid);
    const recipient = cbeff && (await this.recipientOf(partnerId));
    if (!cbeff || !recipient) return null;
    // Racing fetches may spend a share between the look-up and the count: the next live one serves.
    for (const share of live) if (await this.store.consume(share.shareKey, now)) return this.sealed(recipient, cbeff);
    return null;
  }

  /** The subscriber's certificate as a recipient; null when it has none or it does not parse. */
  private async recipientOf(subscriberId: string): Promise<RecipientKey | null> {
    try {
      const certificate = new X509Certificate(await this.parts.certificateOf(subscriberId));
      return { certificate, publicKey: certificate.publicKey };
    } catch (error) {
      if (error instanceof PlatformError || error instanceof TypeError) return null;
      throw error;
    }
  }

  /** The CBEFF encrypted for the recipient in the configured layout, as base64 text. */
  private sealed(recipient: RecipientKey, cbeff: Buffer): string {
    if (this.settings.dataShareLayout === 'LEGACY') return encryptLegacy(recipient, cbeff).toString('base64');
    // java.util.Base64.getUrlEncoder(): URL-safe, with padding.
    return encodeBase64Url(encryptVerR2(recipient, cbeff));
  }
}
