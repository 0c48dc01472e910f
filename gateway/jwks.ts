import type { Request, Response } from 'express';
import type { Jwk } from '../lib/tokens.js';

/** How long a verifier may keep the key set: a verifier meeting an unknown kid fetches it again at once (RFC 7517 practice). */
const MAX_AGE_SECONDS = 300;

/**
 * GET /.well-known/jwks.json: the public keys that verify the platform's
 * tokens now (the active signing key and those retired while their tokens
 * live), for verifiers outside the platform. Public halves only; no token needed.
 */
export function jwksRoute(jwks: () => Promise<{ keys: Jwk[] }>) {
  return async (_req: Request, res: Response) => {
    const body = await jwks();
    res.setHeader('Cache-Control', `public, max-age=${MAX_AGE_SECONDS}`);
    res.json(body);
  };
}
