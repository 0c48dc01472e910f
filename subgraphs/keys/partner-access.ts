import { PlatformError } from '../../lib/errors.js';
import type { Role } from '../../lib/roles.js';
import type { Principal } from '../../lib/tokens.js';
import { PARTNER_APPLICATION } from './partner-certificates.js';

/** The key store's own admins: they keep every application's keys and other domains' certificates, partners' included. */
export const KEY_STORE_ADMINS: readonly Role[] = ['GLOBAL_ADMIN', 'KEY_MAKER'];

/**
 * Partner management's answer to "which of these partners does this caller
 * reach": the partner itself, the managers of its policy group, partner
 * management's admins, each admitted at partner management's desk. Offered by
 * the partner component (PlatformServices.partnerReach).
 */
export interface PartnerReach {
  reachedPartners(caller: Principal, partnerIds: readonly string[]): Promise<Set<string>>;
}

/** Who calls: a verified token, or nobody (an endpoint the deployment opened with PLATFORM_SPEC_OPEN_ENDPOINTS). */
export type KeyCaller = Principal | null;

const forbidden = (why: string) => new PlatformError('KER-ATH-403', `Forbidden: ${why}`);

/** Whether a key pair is a partner's certificate (PARTNER/<partnerId>), not the PARTNER application's own master key. */
export const isPartnerCertificate = (applicationId: string, referenceId: string): boolean => applicationId === PARTNER_APPLICATION && referenceId !== '';

/**
 * One rule for partners' certificates (PARTNER/<partnerId>), whichever door
 * reaches them (the key manager's REST and GraphQL fields, the Certificate and
 * Partner entities, partner management's own calls): a key store admin reaches
 * every one; anyone else only those of partners that partner management lets
 * it reach. Replacing one outside partner management takes a key store admin.
 */
export class PartnerCertificateAccess {
  /** `partners`: read at call time (partner management is built after the key store); absent, only key store admins pass. */
  constructor(private readonly partners: () => PartnerReach | undefined) {}

  isKeyStoreAdmin(caller: Pick<Principal, 'roles'>): boolean {
    return caller.roles.some((role) => (KEY_STORE_ADMINS as readonly string[]).includes(role));
  }

  /** The partners among `partnerIds` whose certificates the caller may read. */
  async readable(caller: Principal, partnerIds: readonly string[]): Promise<Set<string>> {
    if (this.isKeyStoreAdmin(caller)) return new Set(partnerIds);
    const reach = this.partners();
    return reach && partnerIds.length ? reach.reachedPartners(caller, partnerIds) : new Set();
  }

  /** KER-ATH-403 unless the caller may read the pair's certificate; pairs other than partners' are the role table's business. */
  async mustRead(caller: Principal, applicationId: string, referenceId: string): Promise<void> {
    if (!isPartnerCertificate(applicationId, referenceId)) return;
    if (!(await this.readable(caller, [referenceId])).has(referenceId)) throw forbidden(`the certificate of partner ${referenceId} is not yours to read`);
  }

  /**
   * KER-ATH-403 unless the caller may put another domain's certificate in
   * force for the pair through the key manager: for a partner, a key store
   * admin (partners, their managers and partner admins upload through
   * partner management, with its scope). `null`: the deployment opened the
   * endpoint without a token (PLATFORM_SPEC_OPEN_ENDPOINTS).
   */
  mustReplace(caller: KeyCaller, applicationId: string, referenceId: string): void {
    if (!isPartnerCertificate(applicationId, referenceId) || caller === null || this.isKeyStoreAdmin(caller)) return;
    throw forbidden(`a partner's certificate changes through partner management (POST /partnermanagement/v1/partners/certificate/upload)`);
  }
}
