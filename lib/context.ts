import { randomUUID } from 'node:crypto';
import { readCredentials, type Credentials } from './credentials.js';
import type { Principal, TokenService } from './tokens.js';

/** The headers that carry credentials; forwarded as they are to remote subgraphs. */
export interface CredentialHeaders {
  cookie?: string | undefined;
  authorization?: string | undefined;
}

/** Per-request state every resolver sees, in-process or in a remote subgraph. */
export interface RequestContext {
  requestId: string;
  clientAddress: string;
  credentialHeaders: CredentialHeaders;
  credentials: Credentials;
  /** The verified caller; checked once per request, whichever subgraphs it touches. */
  principal(): Promise<Principal>;
  /** this request's batch loaders (lib/graph/loader.ts), by name */
  loaders: Map<string, (key: unknown) => Promise<unknown>>;
  /**
   * Told of the tokens a login or a refresh issued, or of a logout: the
   * gateway's `/graphql` sets (or clears) the same HttpOnly cookies as REST,
   * so a browser portal never holds a token in script. Unset elsewhere.
   */
  sessionCookies?: SessionCookies;
}

/** The tokens a login or a refresh hands out, as the cookies carry them. */
export interface IssuedTokens {
  token: string;
  expiryTime: number;
  refreshToken?: string | null;
  refreshExpiryTime?: number | null;
}

export interface SessionCookies {
  issued(tokens: IssuedTokens): void;
  ended(): void;
  /** the session cookies a separately served subgraph set on its answer, passed on to the caller */
  forward(setCookies: readonly string[]): void;
}

/** A login's or refresh's answer, its tokens told to the request's cookie keeper first. */
export async function withSessionCookies<T extends IssuedTokens>(context: RequestContext, issuing: Promise<T>): Promise<T> {
  const issued = await issuing;
  context.sessionCookies?.issued(issued);
  return issued;
}

export function createRequestContext(
  input: { headers: CredentialHeaders; clientAddress: string; requestId?: string | undefined },
  tokens: Pick<TokenService, 'verify'>,
): RequestContext {
  const credentials = readCredentials(input.headers);
  let verified: Promise<Principal> | undefined;
  return {
    requestId: input.requestId ?? randomUUID(),
    clientAddress: input.clientAddress,
    credentialHeaders: { cookie: input.headers.cookie, authorization: input.headers.authorization },
    credentials,
    principal: () => (verified ??= tokens.verify(credentials)),
    loaders: new Map(),
  };
}
