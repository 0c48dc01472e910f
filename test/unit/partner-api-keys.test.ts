import { describe, expect, it } from 'vitest';
import { API_KEY_LENGTH } from '../../subgraphs/partner/partners/api-keys.js';
import { as, NOW, partnerRow, partnerWorld, rejectsWith, requestRow } from './partner-fakes.js';

const KEY_A = 'A'.repeat(API_KEY_LENGTH);
const KEY_B = 'B'.repeat(API_KEY_LENGTH);
const withKeys = () =>
  partnerWorld({
    keys: [
      { clear: KEY_A, partnerId: 'P-A', policyId: 'pol-a' },
      { clear: KEY_B, partnerId: 'P-B', policyId: 'pol-b' },
    ],
  });

describe('API key requests: a partner asks, its group’s manager decides', () => {
  it('takes a request from the partner itself, for an active policy of its group, in progress', async () => {
    const world = partnerWorld();
    const { apiRequestId } = await world.apiKeys.requestApiKey(as.partnerA, 'P-A', 'pol-a', 'payments');
    expect(world.requests.get(apiRequestId)).toMatchObject({ partnerId: 'P-A', policyId: 'pol-a', status: 'in-progress', useCaseDescription: 'payments' });
  });

  it('refuses another’s partner, a deactivated partner, another group’s policy, an unknown or inactive one', async () => {
    const world = partnerWorld({
      partners: [
        partnerRow({ id: 'P-A', policyGroupId: 'group-a' }),
        partnerRow({ id: 'P-OFF', policyGroupId: 'group-a', userId: 'off', status: 'De-Active' }),
      ],
    });
    await rejectsWith(world.apiKeys.requestApiKey(as.partnerA, 'NO-SUCH', 'pol-a', null), 'PMS_PRT_005');
    await rejectsWith(world.apiKeys.requestApiKey(as.partnerB, 'P-A', 'pol-a', null), 'KER-ATH-403');
    await rejectsWith(world.apiKeys.requestApiKey({ subject: 'off', roles: ['PARTNER'] }, 'P-OFF', 'pol-a', null), 'PMS_PMP_016');
    await rejectsWith(world.apiKeys.requestApiKey(as.partnerA, 'P-A', 'pol-b', null), 'PMS_PMP_010');
    await rejectsWith(world.apiKeys.requestApiKey(as.partnerA, 'P-A', 'no-such-policy', null), 'PMS_PMP_014');
    await rejectsWith(world.apiKeys.requestApiKey(as.partnerA, 'P-A', 'pol-a-off', null), 'PMS_PMP_014');
    expect(world.requests.size).toBe(0);
  });

  it('approves once: one active key, shown once and kept as its HMAC, valid for the configured days; a second decision is refused', async () => {
    const world = partnerWorld({ requests: [requestRow({ id: 'R1', partnerId: 'P-A', policyId: 'pol-a' })] });
    const approved = await world.apiKeys.decide(as.managerA, 'R1', 'Approved');
    expect(approved.partnerAPIKey).toMatch(new RegExp(`^[A-Za-z0-9]{${API_KEY_LENGTH}}$`));
    expect(approved.apiKey).not.toHaveProperty('keyHash');
    const [kept] = [...world.keys.values()];
    expect(kept).toMatchObject({ keyHash: world.apiKeys.hashOf(approved.partnerAPIKey!), keyHint: approved.partnerAPIKey!.slice(-4), status: 'Active' });
    expect(kept!.expiresAt).toEqual(new Date(NOW.getTime() + 30 * 86_400_000));
    expect(world.requests.get('R1')).toMatchObject({ status: 'Approved', decidedBy: as.managerA.subject });
    await rejectsWith(world.apiKeys.decide(as.managerA, 'R1', 'Rejected'), 'PMS_PMP_012');
    expect(world.keys.size).toBe(1);
  });

  it('decides once when two decisions race: one wins, the other gets PMS_PMP_012, one key', async () => {
    const world = partnerWorld({ requests: [requestRow({ id: 'R1', partnerId: 'P-A', policyId: 'pol-a' })] });
    const results = await Promise.allSettled([world.apiKeys.decide(as.managerA, 'R1', 'Approved'), world.apiKeys.decide(as.managerA, 'R1', 'Approved')]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'PMS_PMP_012' } });
    expect(world.keys.size).toBe(1);
  });

  it('rejects without a key; refuses a manager of no group (001), an unknown request (011), another group’s request (012)', async () => {
    const world = partnerWorld({
      requests: [requestRow({ id: 'R1', partnerId: 'P-A', policyId: 'pol-a' }), requestRow({ id: 'R2', partnerId: 'P-B', policyId: 'pol-b' })],
    });
    await rejectsWith(world.apiKeys.decide(as.idle, 'R1', 'Approved'), 'PMS_PMP_001');
    await rejectsWith(world.apiKeys.decide(as.managerA, 'NO-SUCH', 'Approved'), 'PMS_PMP_011');
    await rejectsWith(world.apiKeys.decide(as.managerA, 'R2', 'Approved'), 'PMS_PMP_012');
    expect(await world.apiKeys.decide(as.managerA, 'R1', 'Rejected')).toEqual({
      message: 'PartnerAPIKeyRequest successfully rejected',
      partnerAPIKey: null,
      apiKey: null,
    });
    expect(world.keys.size).toBe(0);
    expect(world.requests.get('R2')?.status).toBe('in-progress');
  });
});

describe('API key status and policy: the manager of the partner’s group, each change published once written', () => {
  it('switches a key off and on, publishing apiKey.changed after each write', async () => {
    const world = withKeys();
    await world.apiKeys.updateApiKeyStatus(as.managerA, 'P-A', KEY_A, 'De-Active');
    expect((await world.apiKeys.findApiKey(KEY_A))?.status).toBe('De-Active');
    await world.apiKeys.updateApiKeyStatus(as.managerA, 'P-A', KEY_A, 'Active');
    const keyId = (await world.apiKeys.findApiKey(KEY_A))!.id;
    expect(world.published).toEqual([
      ['apiKey.changed', { partnerId: 'P-A', apiKeyId: keyId }],
      ['apiKey.changed', { partnerId: 'P-A', apiKeyId: keyId }],
    ]);
  });

  it('changes and publishes nothing for an unknown key, another partner’s key, a partner outside the manager’s groups', async () => {
    const world = withKeys();
    await rejectsWith(world.apiKeys.updateApiKeyStatus(as.managerA, 'P-A', 'C'.repeat(API_KEY_LENGTH), 'De-Active'), 'PMS_PMP_007');
    await rejectsWith(world.apiKeys.updateApiKeyStatus(as.managerB, 'P-B', KEY_A, 'De-Active'), 'PMS_PMP_007');
    await rejectsWith(world.apiKeys.updateApiKeyStatus(as.managerA, 'P-B', KEY_B, 'De-Active'), 'PMS_PMP_006');
    await rejectsWith(world.apiKeys.updateApiKeyStatus(as.idle, 'P-A', KEY_A, 'De-Active'), 'PMS_PMP_001');
    expect([...world.keys.values()].map((key) => key.status)).toEqual(['Active', 'Active']);
    expect(world.published).toEqual([]);
  });

  it('moves a key to another active policy of its group, conditional on the old one', async () => {
    const world = withKeys();
    await world.apiKeys.changeKeyPolicy(as.managerA, 'P-A', KEY_A, 'pol-a', 'pol-a2');
    expect((await world.apiKeys.findApiKey(KEY_A))?.policyId).toBe('pol-a2');
    expect(world.published.map(([name]) => name)).toEqual(['apiKey.changed']);
    await rejectsWith(world.apiKeys.changeKeyPolicy(as.managerA, 'P-A', KEY_A, 'pol-a', 'pol-a2'), 'PMS_PMP_008');
    await rejectsWith(world.apiKeys.changeKeyPolicy(as.managerA, 'P-A', KEY_A, 'pol-a2', 'pol-b'), 'PMS_PMP_010');
    await rejectsWith(world.apiKeys.changeKeyPolicy(as.managerA, 'P-A', KEY_A, 'pol-a2', 'pol-a-off'), 'PMS_PMP_010');
    await rejectsWith(world.apiKeys.changeKeyPolicy(as.managerA, 'P-A', KEY_A, 'pol-a2', 'no-such-policy'), 'PMS_PMP_014');
    await rejectsWith(world.apiKeys.changeKeyPolicy(as.managerA, 'P-B', KEY_B, 'pol-b', 'pol-a'), 'PMS_PMP_009');
    expect((await world.apiKeys.findApiKey(KEY_A))?.policyId).toBe('pol-a2');
    expect(world.published).toHaveLength(1);
  });

  it('tells of a request’s state only its own partner (or its manager), with the key’s hint once approved', async () => {
    const world = partnerWorld({ requests: [requestRow({ id: 'R1', partnerId: 'P-A', policyId: 'pol-a' })] });
    expect(await world.apiKeys.requestStatus(as.partnerA, 'P-A', 'R1')).toMatchObject({ apikeyReqStatus: 'in-progress', partnerApiKeyHint: null });
    const { partnerAPIKey } = await world.apiKeys.decide(as.managerA, 'R1', 'Approved');
    expect(await world.apiKeys.requestStatus(as.managerA, 'P-A', 'R1')).toMatchObject({
      apikeyReqStatus: 'Approved',
      partnerApiKeyHint: partnerAPIKey!.slice(-4),
    });
    await rejectsWith(world.apiKeys.requestStatus(as.partnerB, 'P-A', 'R1'), 'KER-ATH-403');
    await rejectsWith(world.apiKeys.requestStatus(as.partnerA, 'P-A', 'R2'), 'PMS_PRT_006');
  });
});

describe('partner status: the manager of the partner’s group', () => {
  it('deactivates and activates a partner, publishing partner.changed once written', async () => {
    const world = partnerWorld();
    expect(await world.partners.updatePartnerStatus(as.managerA, 'P-A', 'De-Active')).toMatchObject({
      message: 'Partner de-activated successfully',
      partner: { id: 'P-A', status: 'De-Active' },
    });
    expect(world.partnerRows.get('P-A')).toMatchObject({ status: 'De-Active', updatedBy: as.managerA.subject, updatedAt: NOW });
    expect(world.published).toEqual([['partner.changed', { partnerId: 'P-A' }]]);
  });

  it('changes and publishes nothing for another group’s partner (006), an unknown one (005), a manager of no group (001)', async () => {
    const world = partnerWorld();
    await rejectsWith(world.partners.updatePartnerStatus(as.managerA, 'P-B', 'De-Active'), 'PMS_PMP_006');
    await rejectsWith(world.partners.updatePartnerStatus(as.managerA, 'NO-SUCH', 'De-Active'), 'PMS_PMP_005');
    await rejectsWith(world.partners.updatePartnerStatus(as.idle, 'P-A', 'De-Active'), 'PMS_PMP_001');
    expect(world.partnerRows.get('P-B')?.status).toBe('Active');
    expect(world.published).toEqual([]);
  });

  it('registers a login once, in an active group, under an id no other domain holds', async () => {
    const world = partnerWorld({ certificates: { held: (id) => Promise.resolve(id === 'ABIS-PARTNER') } });
    const newcomer = { subject: 'newcomer', roles: ['PARTNER'] };
    const registration = {
      organizationName: 'Life Bank',
      contactNumber: '+1 555 0101',
      emailId: 'info@life.example',
      address: 'Quay 3',
      policyGroup: 'group-a',
    };
    await rejectsWith(world.partners.register(newcomer, { ...registration, policyGroup: 'group-off' }), 'PMS_COR_002');
    await rejectsWith(world.partners.register(newcomer, { ...registration, partnerId: 'ABIS-PARTNER' }), 'PMS_COR_002');
    await rejectsWith(world.partners.register(newcomer, { ...registration, partnerId: 'P-B' }), 'PMS_COR_002');
    expect(await world.partners.register(newcomer, { ...registration, partnerId: 'LIFE' })).toEqual({ partnerId: 'LIFE', status: 'Active' });
    await rejectsWith(world.partners.register(newcomer, { ...registration, partnerId: 'LIFE-2' }), 'PMS_COR_002');
    expect(world.partnerRows.get('LIFE')).toMatchObject({ userId: 'newcomer', policyGroupId: 'group-a' });
  });
});
