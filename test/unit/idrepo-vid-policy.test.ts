import { describe, expect, it } from 'vitest';
import { DEFAULT_VID_POLICY, VidPolicies, type VidPolicyFile } from '../../subgraphs/idrepo/vids/policy.js';
import {
  actorOf,
  checkRegenerate,
  checkStatusAllowed,
  expiryOf,
  statusAt,
  statusChange,
  vidToRetire,
  type TypePolicy,
} from '../../subgraphs/idrepo/vids/rules.js';

const policies = new VidPolicies();
const perpetual = policies.find('Perpetual')!;
const temporary = policies.find('Temporary')!;
const NOW = new Date('2024-05-01T10:00:00Z');
const MINUTE = 60_000;

/** A policy of one type, its rules over the default temporary ones. */
const oneType = (over: Partial<TypePolicy['policy']>, vidType = 'OneTimeUse'): VidPolicyFile => ({
  vidPolicies: [{ vidType, vidPolicy: { ...temporary.policy, ...over } }],
});

describe('the VID policy (vid_policy.json)', () => {
  it("ships MOSIP's: one perpetual VID that auto-restores when revoked, up to five temporary ones of 30 minutes and one transaction", () => {
    expect(policies.types()).toEqual(['Perpetual', 'Temporary']);
    expect(perpetual.policy).toEqual({
      validForInMinutes: null,
      transactionsAllowed: null,
      instancesAllowed: 1,
      autoRestoreAllowed: true,
      restoreOnAction: 'REVOKED',
    });
    expect(temporary.policy).toEqual({
      validForInMinutes: 30,
      transactionsAllowed: 1,
      instancesAllowed: 5,
      autoRestoreAllowed: false,
      restoreOnAction: 'REGENERATE',
    });
    expect(new VidPolicies(DEFAULT_VID_POLICY).types()).toEqual(policies.types());
  });

  it('finds a type ignoring case, answering with the spelling of the policy', () => {
    expect(policies.find('PERPETUAL')?.type).toBe('Perpetual');
    expect(policies.find('temporary')?.type).toBe('Temporary');
    expect(policies.find('Shortlived')).toBeUndefined();
  });

  it('refuses a policy that cannot be applied, naming what is wrong', () => {
    expect(() => new VidPolicies({ vidPolicies: [] })).toThrow(/VID policy: vidPolicies/);
    expect(() => new VidPolicies(oneType({ instancesAllowed: 0 }))).toThrow(/instancesAllowed/);
    expect(() => new VidPolicies(oneType({ validForInMinutes: -5 }))).toThrow(/validForInMinutes/);
    expect(() => new VidPolicies(oneType({ transactionsAllowed: 1.5 }))).toThrow(/transactionsAllowed/);
    expect(() => new VidPolicies(oneType({ autoRestoreAllowed: true, restoreOnAction: 'REGENERATE' }))).toThrow(/restoreOnAction/);
    expect(() => new VidPolicies(oneType({}, '1-starts-with-a-digit'))).toThrow(/vidType/);
    expect(() => new VidPolicies({ vidPolicies: [...oneType({}, 'Once').vidPolicies, ...oneType({}, 'ONCE').vidPolicies] })).toThrow(/appears twice/);
  });
});

describe('VID rules', () => {
  it('reads an ACTIVE VID past its expiry as EXPIRED, and any other status as stored', () => {
    const expiresAt = new Date(NOW.getTime() + 30 * MINUTE);
    expect(statusAt({ status: 'ACTIVE', expiresAt }, NOW)).toBe('ACTIVE');
    expect(statusAt({ status: 'ACTIVE', expiresAt }, expiresAt)).toBe('EXPIRED');
    expect(statusAt({ status: 'ACTIVE', expiresAt: null }, new Date('2999-01-01'))).toBe('ACTIVE');
    expect(statusAt({ status: 'REVOKED', expiresAt }, expiresAt)).toBe('REVOKED');
  });

  it("dates a VID's expiry by its type: never for a perpetual one, 30 minutes on for a temporary one", () => {
    expect(expiryOf(perpetual.policy, NOW)).toBeNull();
    expect(expiryOf(temporary.policy, NOW)).toEqual(new Date(NOW.getTime() + 30 * MINUTE));
  });

  it('makes room at the instance limit only by auto-restore, and only exactly at it', () => {
    expect(vidToRetire([], perpetual)).toBeUndefined();
    expect(vidToRetire(['oldest'], perpetual)).toBe('oldest');
    // More than the limit (a policy since made stricter): nothing is retired.
    expect(() => vidToRetire(['a', 'b'], perpetual)).toThrow(expect.objectContaining({ code: 'IDR-VID-003' }));
    expect(vidToRetire(['a', 'b', 'c', 'd'], temporary)).toBeUndefined();
    expect(() => vidToRetire(['a', 'b', 'c', 'd', 'e'], temporary)).toThrow(/a UIN holds at most 5 Temporary VID\(s\)/);
  });

  it('writes a status unless it is USED on a VID of unlimited transactions; restores on the action of the policy', () => {
    expect(statusChange(perpetual, 'USED')).toEqual({ write: false, restore: false });
    expect(statusChange(perpetual, 'REVOKED')).toEqual({ write: true, restore: true });
    expect(statusChange(temporary, 'USED')).toEqual({ write: true, restore: false });
    expect(statusChange(temporary, 'REVOKED')).toEqual({ write: true, restore: false });
  });

  it('regenerates only types without auto-restore, from ACTIVE, REVOKED, EXPIRED or USED', () => {
    for (const status of ['ACTIVE', 'REVOKED', 'EXPIRED', 'USED']) expect(() => checkRegenerate(temporary, status)).not.toThrow();
    expect(() => checkRegenerate(temporary, 'INVALIDATED')).toThrow(expect.objectContaining({ code: 'IDR-VID-001', message: 'VID is INVALIDATED' }));
    expect(() => checkRegenerate(perpetual, 'ACTIVE')).toThrow(expect.objectContaining({ code: 'IDR-VID-003' }));
  });

  it('lets the processor and operators set any status, ID authentication USED only, a resident REVOKED only', () => {
    const caller = (...roles: string[]) => ({ subject: 'caller', subjectType: 'client' as const, roles });
    for (const status of ['ACTIVE', 'REVOKED', 'USED', 'DEACTIVATED'] as const) {
      expect(() => checkStatusAllowed(caller('REGISTRATION_PROCESSOR'), status)).not.toThrow();
      expect(() => checkStatusAllowed(caller('ID_REPOSITORY'), status)).not.toThrow();
    }
    expect(() => checkStatusAllowed(caller('ID_AUTHENTICATION'), 'USED')).not.toThrow();
    expect(() => checkStatusAllowed(caller('ID_AUTHENTICATION'), 'REVOKED')).toThrow(expect.objectContaining({ code: 'IDR-IDC-002' }));
    expect(() => checkStatusAllowed(caller('RESIDENT'), 'REVOKED')).not.toThrow();
    expect(() => checkStatusAllowed(caller('RESIDENT'), 'ACTIVE')).toThrow(expect.objectContaining({ code: 'IDR-IDC-011' }));
  });

  it('records a change by a resident as "resident", never its identity', () => {
    expect(actorOf({ subject: 'identity-1', subjectType: 'resident', roles: ['RESIDENT'] })).toBe('resident');
    expect(actorOf({ subject: 'processor', subjectType: 'client', roles: ['REGISTRATION_PROCESSOR'] })).toBe('processor');
  });
});
