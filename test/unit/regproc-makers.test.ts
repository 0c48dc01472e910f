// Who made a packet (subgraphs/regproc/pipeline/makers.ts) over master data and auth kept in memory:
// each check a transaction of its own, the first failure rejecting the packet under its type with
// MOSIP's code, and nothing the packet says about its makers taken on its word.
import { describe, expect, it } from 'vitest';
import { buildCbeff } from '../../lib/packet/cbeff.js';
import { readPacketZip } from '../../lib/packet/format.js';
import { buildPacketZip, type PacketInput } from '../../lib/packet/write.js';
import { sampleBiometrics } from '../../tools/registration/sample-resident.js';
import type { MachinePlacement } from '../../subgraphs/masterdata/centres/machines.js';
import { checkMakers, type MakerAccount, type MakersPort } from '../../subgraphs/regproc/pipeline/makers.js';
import { StageRejection, type StageRegistration } from '../../subgraphs/regproc/pipeline/stages.js';

const MADE = new Date('2026-11-28T09:00:00Z');
const RID = '10001100010000120261128090000';
const registration: StageRegistration = {
  rid: RID,
  centreId: '10001',
  machineId: '10001',
  registrationType: 'NEW',
  origin: 'CLIENT',
  createdAt: new Date('2026-11-28T09:05:00Z'),
  supervisorStatus: 'APPROVED',
  langCode: 'eng',
  status: 'PROCESSING',
  stage: 'VALIDATE_PACKET',
  attempts: 0,
  bioRefId: null,
  packetKey: 'key',
};

const officerFinger = buildCbeff(sampleBiometrics('officer-person').slice(0, 1));
const ACCOUNTS: Record<string, MakerAccount> = {
  officer: { isLocked: false, roles: ['REGISTRATION_OFFICER'], rid: 'rid-of-officer' },
  supervisor: { isLocked: false, roles: ['REGISTRATION_SUPERVISOR'], rid: null },
  locked: { isLocked: true, roles: ['REGISTRATION_OFFICER'], rid: null },
  admin: { isLocked: false, roles: ['GLOBAL_ADMIN'], rid: null },
};

/** Master data and auth: officer and supervisor mapped from 08:00, `placement` as given. */
function port(placement: MachinePlacement = 'ACTIVE'): MakersPort {
  return {
    placement: () => Promise.resolve(placement),
    accounts: (ids) => Promise.resolve(new Map(ids.flatMap((id) => (ACCOUNTS[id] ? [[id, ACCOUNTS[id]] as const] : [])))),
    mappedAt: (_centre, userId, at) => Promise.resolve(['officer', 'supervisor', 'locked'].includes(userId) && at >= new Date('2026-11-28T08:00:00Z')),
    biometricsOfRegistration: (rid) => Promise.resolve(rid === 'rid-of-officer' ? buildCbeff(sampleBiometrics('officer-person')) : null),
  };
}

const packet = (over: Partial<PacketInput> = {}) =>
  readPacketZip(
    buildPacketZip({
      registrationId: RID,
      centerId: '10001',
      machineId: '10001',
      creationDate: MADE,
      officerId: 'officer',
      supervisorId: 'supervisor',
      identity: {},
      ...over,
    }),
    { maxUncompressedBytes: 1 << 20 },
  );

/** The checks' transactions, or the refusal as `type:code`. */
async function outcome(over: Partial<PacketInput> = {}, placement?: MachinePlacement, at: Partial<StageRegistration> = {}): Promise<string[] | string> {
  try {
    const passed = await checkMakers({ ...registration, ...at }, await packet(over), port(placement), []);
    return passed.map((row) => `${row.type}:${row.statusCode}`);
  } catch (error) {
    if (!(error instanceof StageRejection)) throw error;
    return `${error.transactionType}:${error.subStatusCode}`;
  }
}

describe('who made a packet', () => {
  it('passes a packet of active, mapped makers who signed in, each check a transaction', async () => {
    expect(await outcome()).toEqual(['CMD_VALIDATION:SUCCESS', 'OPERATOR_VALIDATION:SUCCESS', 'SUPERVISOR_VALIDATION:SUCCESS']);
  });

  it('refuses the centre and machine as master data has them, and a creation date away from the RID or after the sync', async () => {
    expect(await outcome({}, 'UNKNOWN_CENTRE')).toBe('CMD_VALIDATION:RPR-CMD-FAILED-002');
    expect(await outcome({}, 'INACTIVE_MACHINE')).toBe('CMD_VALIDATION:RPR-CMD-FAILED-005');
    expect(await outcome({}, 'ELSEWHERE')).toBe('CMD_VALIDATION:RPR-CMD-FAILED-015');
    expect(await outcome({ creationDate: new Date('2026-11-26T09:00:00Z') })).toBe('CMD_VALIDATION:RPR-CMD-FAILED-016');
    expect(await outcome({}, 'ACTIVE', { createdAt: new Date('2026-11-27T08:00:00Z') })).toBe('CMD_VALIDATION:RPR-CMD-FAILED-016');
  });

  it('refuses makers who are unknown, locked, without the role, the same person, or not mapped when the packet was made', async () => {
    expect(await outcome({ officerId: '' })).toBe('OPERATOR_VALIDATION:RPR-OVM-FAILED-005');
    expect(await outcome({ officerId: 'ghost' })).toBe('OPERATOR_VALIDATION:RPR-OVM-FAILED-004');
    expect(await outcome({ officerId: 'locked' })).toBe('OPERATOR_VALIDATION:RPR-OVM-FAILED-004');
    expect(await outcome({ officerId: 'admin' })).toBe('OPERATOR_VALIDATION:RPR-OVM-FAILED-004');
    expect(await outcome({ supervisorId: 'officer' })).toBe('SUPERVISOR_VALIDATION:RPR-SVM-FAILED-004');
    expect(await outcome({ supervisorId: 'Officer' })).toBe('SUPERVISOR_VALIDATION:RPR-SVM-FAILED-004');
    expect(await outcome({ creationDate: new Date('2026-11-28T07:59:00Z') }, 'ACTIVE', { rid: RID.replace('090000', '075900') })).toBe(
      'OPERATOR_VALIDATION:RPR-OVM-FAILED-001',
    );
  });

  it("counts a sign-in by password or OTP as the client recorded it, and by biometrics only when they match the person's identity", async () => {
    expect(await outcome({ officerAuthentication: { otp: true } })).toEqual(expect.arrayContaining(['OPERATOR_VALIDATION:SUCCESS']));
    expect(await outcome({ officerAuthentication: {} })).toBe('OPERATOR_VALIDATION:RPR-OVM-FAILED-003');
    expect(await outcome({ officerAuthentication: { biometrics: officerFinger } })).toEqual(expect.arrayContaining(['OPERATOR_VALIDATION:SUCCESS']));
    const stranger = buildCbeff(sampleBiometrics('stranger').slice(0, 1));
    expect(await outcome({ officerAuthentication: { biometrics: stranger } })).toBe('OPERATOR_VALIDATION:RPR-OVM-FAILED-003');
    // A supervisor with no identity of their own cannot be matched: their biometrics prove nothing.
    expect(await outcome({ supervisorAuthentication: { biometrics: officerFinger } })).toBe('SUPERVISOR_VALIDATION:RPR-SVM-FAILED-003');
  });
});
