import { expect } from 'vitest';
import { envelopeOf, type TestPlatform } from './platform.js';

export const PMS_BASE = '/partnermanagement/v1';

/** Partner management calls in its envelopes; `platform` is read at call time (set by useTestPlatform). */
export function pmsCalls(platform: () => TestPlatform) {
  const send = (headers: Record<string, string>, method: string, path: string, body?: unknown) =>
    platform().request(method, PMS_BASE + path, { body: body === undefined ? undefined : envelopeOf(body), headers });
  /** The response of a call that must succeed (errors `[]`). */
  const ok = async (call: Promise<{ json: any }>) => {
    const { json } = await call;
    expect(json.errors, JSON.stringify(json.errors)).toEqual([]);
    return json.response;
  };
  return { send, ok };
}
