/** A user as another subgraph refers to it: its key only (the auth subgraph resolves the rest). */
export interface UserRef {
  userId: string;
}
