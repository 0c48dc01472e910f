import { describe, expect, it } from 'vitest';
import { RPR } from '../../subgraphs/regproc/errors.js';
import { ridProblem, ridTime } from '../../subgraphs/regproc/registrations/rid.js';

const NOW = new Date('2026-11-25T06:00:00Z');
/** centre 10001, machine 10001, sequence 00001, then the time. */
const rid = (stamp: string) => `100011000100001${stamp}`;

describe('registration ids (ABIS.md (e): 29 digits, the last 14 yyyyMMddHHmmss)', () => {
  it('accepts a RID with a real time in the past', () => {
    expect(ridProblem(rid('20261125054500'), NOW)).toBeUndefined();
    expect(ridTime(rid('20261125054500'), NOW)).toEqual(new Date('2026-11-25T05:45:00Z'));
  });

  it('refuses a length other than 29 with RPR-RGS-009, before anything else', () => {
    expect(ridProblem(rid('2026112505450'), NOW)?.errorCode).toBe(RPR.ridLength);
    expect(ridProblem(`${rid('20261125054500')}0`, NOW)?.errorCode).toBe(RPR.ridLength);
    expect(ridProblem('abc', NOW)?.errorCode).toBe(RPR.ridLength);
  });

  it('refuses letters with RPR-RGS-015', () => {
    expect(ridProblem(`A${rid('20261125054500').slice(1)}`, NOW)?.errorCode).toBe(RPR.invalidValue);
  });

  it('refuses a time that is not a real date, before 2000 or more than a day ahead with RPR-RGS-007', () => {
    for (const stamp of ['20260230120000', '20261325120000', '20261125246000', '19991231235959', '20261127060001'])
      expect(ridProblem(rid(stamp), NOW)?.errorCode, stamp).toBe(RPR.invalidRidTimestamp);
    // a client stamping local time a few hours ahead of UTC is accepted
    expect(ridProblem(rid('20261125110000'), NOW)).toBeUndefined();
  });

  it('gives a parent RID RPR-RGS-012 whatever is wrong with it', () => {
    expect(ridProblem('123', NOW, true)?.errorCode).toBe(RPR.parentRidLength);
    expect(ridProblem(rid('20260230120000'), NOW, true)?.errorCode).toBe(RPR.parentRidLength);
    expect(ridProblem(rid('20261125054500'), NOW, true)).toBeUndefined();
  });
});
