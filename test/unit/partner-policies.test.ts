import { describe, expect, it } from 'vitest';
import { checkContent, readContent } from '../../subgraphs/partner/policies/content.js';
import { as, partnerWorld, rejectsWith } from './partner-fakes.js';

const otp = { authType: 'otp', mandatory: true };
const kyc = { authType: 'kyc', mandatory: false };
const code = (check: () => unknown) => {
  try {
    check();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
};

describe('a policy’s content (Document 1’s values)', () => {
  it('keeps the allowed types, a biometric one with its modality, and normalises "" to no sub-type', () => {
    expect(
      checkContent({
        authPolicies: [{ ...otp, authSubType: '' }, { authType: 'bio', authSubType: 'FACE', mandatory: false }, kyc],
        allowedKycAttributes: [{ attributeName: 'fullName', required: true }],
      }),
    ).toEqual({
      authPolicies: [
        { authType: 'otp', authSubType: null, mandatory: true },
        { authType: 'bio', authSubType: 'FACE', mandatory: false },
        { authType: 'kyc', authSubType: null, mandatory: false },
      ],
      allowedKycAttributes: [{ attributeName: 'fullName', required: true }],
    });
  });

  it('refuses an unknown type, a biometric one without a known modality, a sub-type elsewhere (PMS_POL_006)', () => {
    expect(code(() => checkContent({ authPolicies: [{ authType: 'pin', mandatory: true }] }))).toBe('PMS_POL_006');
    expect(code(() => checkContent({ authPolicies: [{ authType: 'bio', mandatory: true }] }))).toBe('PMS_POL_006');
    expect(code(() => checkContent({ authPolicies: [{ authType: 'bio', authSubType: 'VOICE', mandatory: true }] }))).toBe('PMS_POL_006');
    expect(code(() => checkContent({ authPolicies: [{ ...otp, authSubType: 'FACE' }] }))).toBe('PMS_POL_006');
  });

  it('asks eKYC for its attributes (PMS_POL_007) and knows them (PMS_POL_005), the auth types checked first', () => {
    expect(code(() => checkContent({ authPolicies: [kyc] }))).toBe('PMS_POL_007');
    expect(code(() => checkContent({ authPolicies: [kyc], allowedKycAttributes: [{ attributeName: 'shoeSize', required: false }] }))).toBe('PMS_POL_005');
    expect(code(() => checkContent({ authPolicies: [otp], allowedKycAttributes: [{ attributeName: 'shoeSize', required: false }] }))).toBe('PMS_POL_005');
    expect(
      code(() =>
        checkContent({ authPolicies: [{ authType: 'pin', mandatory: true }], allowedKycAttributes: [{ attributeName: 'shoeSize', required: false }] }),
      ),
    ).toBe('PMS_POL_006');
  });

  it('reads stored content back, missing members as empty lists', () => {
    expect(readContent(null)).toEqual({ authPolicies: [], allowedKycAttributes: [] });
    expect(readContent({ authPolicies: [{ authType: 'otp', authSubType: null, mandatory: true }] }).allowedKycAttributes).toEqual([]);
  });
});

describe('policy writes, each published once written', () => {
  const managerA = async (world: ReturnType<typeof partnerWorld>) => ({
    subject: as.policyManagerA.subject,
    scope: await world.groups.scopeOf(as.policyManagerA),
  });

  it('updates a policy’s content and switch, publishing policy.changed with its group after each', async () => {
    const world = partnerWorld();
    const caller = await managerA(world);
    const updated = await world.policies.update(caller, 'pol-a', {
      desc: 'new words',
      policies: { authPolicies: [{ ...kyc }], allowedKycAttributes: [{ attributeName: 'email', required: true }] },
    });
    expect(updated).toMatchObject({ description: 'new words', updatedBy: caller.subject });
    expect(readContent(updated.policies).allowedKycAttributes).toEqual([{ attributeName: 'email', required: true }]);
    await world.policies.setActive(caller, 'pol-a', false);
    expect(world.policyTables.policies.get('pol-a')?.isActive).toBe(false);
    expect(world.published).toEqual([
      ['policy.changed', { policyId: 'pol-a', policyGroupId: 'group-a' }],
      ['policy.changed', { policyId: 'pol-a', policyGroupId: 'group-a' }],
    ]);
  });

  it('publishes nothing for a write refused: nothing to update (009), a name taken in the group (004), bad content', async () => {
    const world = partnerWorld();
    const caller = await managerA(world);
    await rejectsWith(world.policies.update(caller, 'pol-a', {}), 'PMS_POL_009');
    await rejectsWith(world.policies.update(caller, 'pol-a', { name: 'pol-a2' }), 'PMS_POL_004');
    await rejectsWith(world.policies.update(caller, 'pol-a', { policies: { authPolicies: [kyc] } }), 'PMS_POL_007');
    await rejectsWith(world.policies.create(caller, { name: 'pol-a', desc: 'again', policies: { authPolicies: [otp] } }), 'PMS_POL_004');
    expect(world.policyTables.policies.get('pol-a')?.name).toBe('pol-a');
    expect(world.published).toEqual([]);
  });

  it('creates a policy unpublished: nothing cached can depend on a policy no key is mapped to yet', async () => {
    const world = partnerWorld();
    const created = await world.policies.create(await managerA(world), { name: 'fresh', desc: 'new', policies: { authPolicies: [otp] } });
    expect(created).toMatchObject({ name: 'fresh', policyGroupId: 'group-a', isActive: true });
    expect(world.published).toEqual([]);
  });
});
