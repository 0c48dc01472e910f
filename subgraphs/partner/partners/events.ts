/** A partner's status changed (event `partner.changed`). */
export interface PartnerChanged {
  partnerId: string;
}

/** A partner API key's status or policy changed (event `apiKey.changed`). */
export interface ApiKeyChanged {
  partnerId: string;
  apiKeyId: string;
}

declare module '../../../lib/events.js' {
  interface DomainEvents {
    /** Heard by what depends on a partner being active (partner validation's links). */
    'partner.changed': PartnerChanged;
    /** Heard by what depends on a key's status or policy (partner validation's links). */
    'apiKey.changed': ApiKeyChanged;
  }
}
