import { describe, expect, it } from 'vitest';
import { uinRules, violations } from '../../lib/numbers.js';
import { expectRejected } from '../support/assertions.js';
import { idrepoCalls } from '../support/identities.js';
import { bearer, cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { waitFor } from '../support/wait.js';

const POOL = 100_000;
let t: TestPlatform;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', PLATFORM_UIN_POOL_SIZE: String(POOL), PLATFORM_UIN_POOL_THRESHOLD: String(POOL - 10) }, (platform) => {
  t = platform;
});
const { ok, create } = idrepoCalls(() => t);

describe('UIN pool', () => {
  it('fills with 100,000 UINs that all pass the platform.kernel.uin rules, no two alike, none readable at rest', async () => {
    const pool = t.platform.deps.services.uinPool;
    await pool.fill();
    const rows = await t.platform.deps.prisma.uinPool.findMany();
    expect(rows).toHaveLength(POOL);
    const cipher = t.platform.deps.services.idrepoCipher;
    const rules = uinRules(t.platform.deps.globalConfiguration);
    const uins = new Set<string>();
    for (const row of rows) {
      const uin = (await cipher.decrypt(row.uinEncrypted, `uin-pool/${row.uinHash}`)).toString('utf8');
      expect(row.uinEncrypted).not.toContain(uin);
      expect(cipher.lookup(uin)).toBe(row.uinHash);
      if (violations(uin, rules).length) expect.fail(`${uin}: ${violations(uin, rules).join(', ')}`);
      uins.add(uin);
    }
    expect(uins.size).toBe(POOL);
  }, 240_000);

  it('hands each UIN out once, to the registration processor only, and fills up again below the threshold', async () => {
    const processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
    const draws = await Promise.all(Array.from({ length: 20 }, () => t.request('GET', '/v1/idgenerator/uin', { headers: processor })));
    const uins = draws.map(({ json }) => json.response.uin as string);
    expect(new Set(uins).size).toBe(20);
    // A drawn UIN is a new identity's, and never comes back.
    await ok(create(processor, uins[0]!));
    // Twenty draws took it below its threshold: it is filled again (draws racing the fill may leave it a little short of full).
    await waitFor(async () => (await t.platform.deps.services.uinPool.unused()) >= POOL - 10, 'the pool filled up again');
    const holders = await t.platform.deps.prisma.uinPool.count({
      where: { uinHash: { in: uins.map((uin) => t.platform.deps.services.idrepoCipher.lookup(uin)) } },
    });
    expect(holders).toBe(0);
    const resident = cookieHeader((await t.clientToken(['RESIDENT'], 'resident')).token);
    await expectRejected(t, () => t.request('GET', '/v1/idgenerator/uin', { headers: resident }), 'KER-ATH-403');
    const state = await t.graphql('{ uinPool { unused size threshold } }', {}, bearer(await t.adminToken()));
    expect(state.errors).toBeUndefined();
    expect(state.data.uinPool).toEqual({ unused: expect.any(Number), size: POOL, threshold: POOL - 10 });
    expect(state.data.uinPool.unused).toBeGreaterThanOrEqual(POOL - 10);
  }, 120_000);
});
