import type { Response } from 'express';
import type { SessionCookies } from '../lib/context.js';
import { REFRESH_COOKIE, refreshCookie, TOKEN_COOKIE, tokenCookie } from '../lib/credentials.js';

export const GRAPHQL_PATH = '/graphql';

/** The only cookies a remote subgraph's answer may pass on to the caller: the session's two. */
const FORWARDED = new RegExp(`^(${TOKEN_COOKIE}|${REFRESH_COOKIE})=`);

/**
 * The cookies a GraphQL login, refresh or logout sets on `/graphql`'s answer:
 * REST's token cookie, and the refresh token's sent back to `/graphql` only.
 * A separately served auth subgraph sets them on its own answer; the gateway
 * passes those two on.
 */
export function sessionCookiesOn(res: Response): SessionCookies {
  return {
    issued: ({ token, expiryTime, refreshToken, refreshExpiryTime }) => {
      res.append('Set-Cookie', tokenCookie(token, expiryTime));
      if (refreshToken && refreshExpiryTime) res.append('Set-Cookie', refreshCookie(refreshToken, refreshExpiryTime, GRAPHQL_PATH));
    },
    ended: () => {
      res.append('Set-Cookie', tokenCookie('', 0));
      res.append('Set-Cookie', refreshCookie('', 0, GRAPHQL_PATH));
    },
    forward: (lines) => {
      for (const line of lines) if (FORWARDED.test(line)) res.append('Set-Cookie', line);
    },
  };
}
