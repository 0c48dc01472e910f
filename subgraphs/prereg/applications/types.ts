import type { ApplicationStatus } from '../statuses.js';

/** An application as the areas read it (its demographic data stays sealed until `identityOf`). */
export interface ApplicationRow {
  /** the pre-registration id */
  id: string;
  /** the applicant's user id (auth's `prereg-<hmac>`): only they reach it */
  createdBy: string;
  langCode: string;
  statusCode: ApplicationStatus;
  bookingType: string;
  createdAt: Date;
  updatedBy: string | null;
  updatedAt: Date | null;
}

/** Who calls: the token's subject and roles (lib/tokens Principal fits). */
export interface Caller {
  subject: string;
  roles: readonly string[];
}

/** How to reach an application: `read` lets pre-registration's administrators in too; `change` is its applicant's alone. */
export type Purpose = 'read' | 'change';

/** Where the areas send an applicant's notices: the contact details of their application (none kept elsewhere). */
export interface ApplicantContact {
  name: string | null;
  email: string | null;
  phone: string | null;
  langCode: string;
}

/** An Application as its resolvers receive it: the row, with the identity when it was just given or opened. */
export type ApplicationModel = ApplicationRow & { identity?: Record<string, unknown> };

export interface ApplicationPageModel {
  applications: ApplicationModel[];
  totalRecords: number;
  pageIndex: number;
}

export interface DeletedApplicationModel {
  preRegistrationId: string;
  deletedBy: string;
  deletedDateTime: Date;
}

/** The auth subgraph's caller, by its id. */
export interface ViewerModel {
  id: string;
}
