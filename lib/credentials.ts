/** The cookie name and value prefix of the spec: `Authorization=Platform-Token<jwt>`. */
export const TOKEN_COOKIE = 'Authorization';
export const TOKEN_PREFIX = 'Platform-Token';

/** What a request carried, before any check: enough to tell KER-ATH-006 from KER-ATH-007. */
export interface Credentials {
  token: string | undefined;
  cookiesPresent: boolean;
}

function stripPrefix(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith(TOKEN_PREFIX)) return trimmed.slice(TOKEN_PREFIX.length).trim();
  if (/^bearer\s/i.test(trimmed)) return trimmed.slice(7).trim();
  return trimmed;
}

function cookieValue(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim().toLowerCase() === name.toLowerCase()) {
      const raw = part
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

/** Token from the `Authorization` cookie, or the `Authorization` header (`Platform-Token<jwt>` or `Bearer <jwt>`). */
export function readCredentials(headers: { cookie?: string | undefined; authorization?: string | undefined }): Credentials {
  const cookieHeader = headers.cookie?.trim() ?? '';
  const fromCookie = cookieHeader ? cookieValue(cookieHeader, TOKEN_COOKIE) : undefined;
  const fromHeader = headers.authorization?.trim() ? headers.authorization : undefined;
  const raw = fromCookie ?? fromHeader;
  const token = raw === undefined ? undefined : stripPrefix(raw) || undefined;
  return { token, cookiesPresent: cookieHeader !== '' || fromHeader !== undefined };
}

/** MOSIP's cookie for the refresh token; sent only to the refresh path. */
export const REFRESH_COOKIE = 'refresh_token';
export const REFRESH_PATH = '/v1/authmanager/authorize/refreshToken';

/** The refresh token's cookie, sent back only to `path` (REST's refresh path, or /graphql for a GraphQL login). */
export function refreshCookie(refreshToken: string, maxAgeSeconds: number, path = REFRESH_PATH): string {
  return `${REFRESH_COOKIE}=${refreshToken}; Max-Age=${maxAgeSeconds}; Path=${path}; Secure; HttpOnly; SameSite=Strict`;
}

/** The refresh token of a Cookie header, if any. */
export function refreshTokenOf(cookieHeader: string | undefined): string | undefined {
  return cookieHeader ? cookieValue(cookieHeader, REFRESH_COOKIE) : undefined;
}

/** The Set-Cookie value for a freshly issued token (CONTRACT.md attributes). */
export function tokenCookie(token: string, maxAgeSeconds: number): string {
  return `${TOKEN_COOKIE}=${TOKEN_PREFIX}${token}; Max-Age=${maxAgeSeconds}; Path=/; Secure; HttpOnly; SameSite=Lax`;
}
