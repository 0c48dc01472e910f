/** A user as another subgraph refers to it: its key only (the auth subgraph resolves the rest). */
export interface UserRef {
  userId: string;
}

/** A partner as another subgraph refers to it: its key only (the partner subgraph resolves the rest). */
export interface PartnerRef {
  id: string;
}

/** A registration as another subgraph refers to it: its RID only (the registration processor resolves the rest). */
export interface RegistrationRef {
  registrationId: string;
}
