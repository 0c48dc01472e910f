import { RPR } from '../errors.js';

/** A RID: 29 characters, centre(5) machine(5) sequence(5) then yyyyMMddHHmmss (ABIS.md (e)). */
export const RID_LENGTH = 29;
/** How far past the platform's clock a RID's time may lie: clients stamp local time, up to a day ahead of UTC. */
const FUTURE_ALLOWANCE_MS = 24 * 3600 * 1000;

/**
 * The code and message of what is wrong with a RID, or undefined for a good
 * one: RPR-RGS-009 length, RPR-RGS-015 not digits, RPR-RGS-007 timestamp. A
 * parent RID (`parent`) is RPR-RGS-012 whatever is wrong with it.
 */
export function ridProblem(rid: string, now: Date, parent = false): { errorCode: string; message: string } | undefined {
  const name = parent ? 'Parent registration id' : 'Registration id';
  const problem =
    rid.length !== RID_LENGTH
      ? { errorCode: RPR.ridLength, message: `${name} length must be ${RID_LENGTH}` }
      : !/^\d+$/.test(rid)
        ? { errorCode: RPR.invalidValue, message: `Invalid request value, input data incorrect: ${name} must be digits` }
        : !ridTime(rid, now)
          ? { errorCode: RPR.invalidRidTimestamp, message: `Invalid time stamp found in ${name.toLowerCase()}` }
          : undefined;
  return problem && parent ? { errorCode: RPR.parentRidLength, message: problem.message } : problem;
}

/** The instant of a RID's last 14 digits, when they are a real date and time not (much) in the future. */
export function ridTime(rid: string, now: Date): Date | undefined {
  const stamp = rid.slice(-14);
  const [year, month, day, hour, minute, second] = [0, 4, 6, 8, 10, 12].map((at, index) => Number(stamp.slice(at, index ? at + 2 : 4)));
  const at = new Date(Date.UTC(year!, month! - 1, day, hour, minute, second));
  // Date.UTC rolls 2024-02-30 over to March: a date that does not read back the same is not a date.
  const real =
    at.getUTCFullYear() === year &&
    at.getUTCMonth() === month! - 1 &&
    at.getUTCDate() === day &&
    at.getUTCHours() === hour &&
    at.getUTCMinutes() === minute &&
    at.getUTCSeconds() === second;
  return real && year >= 2000 && at.getTime() <= now.getTime() + FUTURE_ALLOWANCE_MS ? at : undefined;
}
