import { createSign, createVerify } from 'node:crypto';
import type { Clock } from '../../lib/time.js';
import { keyErrors } from './errors.js';
import type { KeyStore } from './key-store.js';
import { RESPONSE_SIGNING_KEY } from './policy.js';

export interface KeyPair {
  applicationId: string;
  referenceId: string;
}

/** The application and reference of the signature service's key (MOSIP: KERNEL / SIGN). */
export const SIGNING_KEY: KeyPair = { applicationId: 'KERNEL', referenceId: 'SIGN' };
/** Signatures validateSignature accepts: the signature service's and the platform's response signatures. */
const VERIFIABLE_KEYS: KeyPair[] = [SIGNING_KEY, RESPONSE_SIGNING_KEY];

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** The signature service and the platform's response signatures: compact JWS (RS256) with the key store's keys. */
export class SignData {
  constructor(
    private readonly store: Pick<KeyStore, 'current' | 'certificateOf' | 'privateKeyOf' | 'entryByThumbprint'>,
    private readonly clock: Clock,
  ) {}

  /** A compact JWS (RS256) over the data with a pair's key in force: its certificate in x5c, its thumbprint as kid. */
  private async signWith(pair: KeyPair, data: string): Promise<string> {
    const entry = await this.store.current(pair.applicationId, pair.referenceId);
    const certificate = this.store.certificateOf(entry);
    const header = base64url(JSON.stringify({ alg: 'RS256', x5c: [certificate.raw.toString('base64')], kid: entry.thumbprint }));
    const input = `${header}.${base64url(data)}`;
    const signature = createSign('RSA-SHA256')
      .update(input)
      .sign(await this.store.privateKeyOf(entry))
      .toString('base64url');
    return `${input}.${signature}`;
  }

  /** The signature service: signs with KERNEL/SIGN, never with the key behind Response-Signature. */
  async sign(data: string | null | undefined): Promise<{ signature: string; timestamp: string }> {
    if (!data) throw keyErrors.signatureInput('data should not be null or empty');
    return { signature: await this.signWith(SIGNING_KEY, data), timestamp: this.clock.now().toISOString() };
  }

  /** Valid only when signed by one of this platform's signing keys (rotated ones too); a detached JWS needs `data`. */
  async validateSignature(jws: string | null | undefined, data?: string | null): Promise<{ status: string; message: string }> {
    const parts = jws?.split('.');
    if (!parts || parts.length !== 3 || !parts[0] || !parts[2]) throw keyErrors.signatureInput('signature is not a compact JWS');
    let header: { alg?: string; kid?: string };
    try {
      header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as typeof header;
    } catch {
      throw keyErrors.signatureInput('the JWS header is not JSON');
    }
    const payload = parts[1] ? Buffer.from(parts[1], 'base64url').toString('utf8') : data;
    if (payload === undefined || payload === null) throw keyErrors.signatureInput('a detached signature needs data');
    if (header.alg !== 'RS256' || !header.kid) throw keyErrors.signatureInvalid();
    const entry = await this.store.entryByThumbprint(header.kid);
    if (!entry || !VERIFIABLE_KEYS.some((pair) => entry.applicationId === pair.applicationId && entry.referenceId === pair.referenceId))
      throw keyErrors.signatureInvalid();
    const ok = createVerify('RSA-SHA256')
      .update(`${parts[0]}.${base64url(payload)}`)
      .verify(this.store.certificateOf(entry).publicKey, Buffer.from(parts[2], 'base64url'));
    if (!ok || (data != null && data !== payload)) throw keyErrors.signatureInvalid();
    return { status: 'success', message: 'Validation Successful' };
  }

  /**
   * The Response-Signature header value: a detached JWS over the body
   * (MOSIP's convention), with a key of its own (PLATFORM/RESPONSE_SIGN) so
   * that no caller of `sign` can produce a platform response.
   */
  async responseSignature(body: string): Promise<string> {
    const [header, , signature] = (await this.signWith(RESPONSE_SIGNING_KEY, body)).split('.');
    return `${header}..${signature}`;
  }
}
