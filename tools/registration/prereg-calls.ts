import { envelopeOf, firstError } from './client.js';

/** Pre-registration's REST as the simulator calls it: its path, envelopes and answers. */

export const PREREG = '/preregistration/v1';
export const envelope = (id: string, request: unknown) =>
  JSON.stringify({ id: `platform.pre-registration.${id}`, version: '1.0', requesttime: new Date().toISOString(), request });
export const json = (body: string, cookie?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
  body,
});

/** A booked applicant: their application and where they come. */
export interface Booked {
  index: number;
  preRegistrationId: string;
  /** the appointment's day */
  date: string;
  /** the applicant's own session, to follow their application to its end */
  cookie: string;
}

/** A call's `response`, or an error naming its first refusal. */
export async function answerOf<T>(response: Response, what: string): Promise<T> {
  const answer = await envelopeOf(response, what);
  if (answer.errors?.length) throw new Error(`${what}: ${firstError(answer)}`);
  return answer.response as T;
}
