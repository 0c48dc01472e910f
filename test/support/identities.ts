import { expect } from 'vitest';
import { generateNumber, uinRules } from '../../lib/numbers.js';
import { envelopeOf, type TestPlatform } from './platform.js';

export { ADDRESS_DOCUMENT, BIOMETRICS, DOCUMENTS, identityOf, NAME, newRid } from './identity-data.js';
import { DOCUMENTS, identityOf, newRid } from './identity-data.js';

/** The ID repository's REST calls on one platform. */
export function idrepoCalls(platform: () => TestPlatform) {
  type Credentials = Record<string, string>;
  /** The envelope `id` the repository requires of a create or an update (MOSIP's IdRequestValidator). */
  const requestIds: Record<string, string> = { POST: 'platform.id.create', PATCH: 'platform.id.update' };
  const send = (headers: Credentials, method: string, urlPath: string, body?: unknown) =>
    platform().request(method, '/idrepository/v1/identity' + urlPath, {
      body: body === undefined ? undefined : envelopeOf(body, urlPath === '/' && requestIds[method] ? { id: requestIds[method] } : {}),
      headers,
    });
  const ok = async (call: Promise<{ json: any }>) => {
    const { json } = await call;
    expect(json.errors, JSON.stringify(json.errors)).toBeOneOf([null, []]);
    return json.response;
  };
  /** The ID repository's VID calls. */
  const vidCall = (headers: Credentials, method: string, urlPath: string, body?: unknown) =>
    platform().request(method, '/idrepository/v1/vid' + urlPath, { body: body === undefined ? undefined : envelopeOf(body), headers });
  const newUin = () => generateNumber(uinRules(platform().platform.deps.globalConfiguration));
  const create = (headers: Credentials, uin: string, rid = newRid(), over: Record<string, unknown> = {}, docs: unknown = DOCUMENTS) =>
    send(headers, 'POST', '/', { registrationId: rid, biometricReferenceId: `bio-${rid}`, identity: identityOf(uin, over), documents: docs });
  return { send, ok, vidCall, newUin, create };
}
