/** A policy's content or switch changed (event `policy.changed`). */
export interface PolicyChanged {
  policyId: string;
  policyGroupId: string;
}

declare module '../../../lib/events.js' {
  interface DomainEvents {
    /** Heard by what answers with a policy (partner validation's links). */
    'policy.changed': PolicyChanged;
  }
}
