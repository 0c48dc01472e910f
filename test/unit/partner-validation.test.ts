import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Database, SubscriptionHandlers } from '../../lib/db/client.js';
import type { EventName } from '../../lib/events.js';
import { createLogger } from '../../lib/log.js';
import { LicenseService } from '../../subgraphs/license/service.js';
import type { LicenseRow, LicenseStorage } from '../../subgraphs/license/storage.js';
import { LinksCache } from '../../subgraphs/partner/validation/links-cache.js';
import type { Links } from '../../subgraphs/partner/validation/links.js';
import { checkLinks, PartnerValidationService } from '../../subgraphs/partner/validation/service.js';
import { as, clock, fakeAsync, MASTER_KEY, NOW, partnerWorld, policyRow, recordingBus, rejectsWith } from './partner-fakes.js';

const KEY = 'K'.repeat(32);
const LATER = new Date(NOW.getTime() + 86_400_000);
const EARLIER = new Date(NOW.getTime() - 1);

/** Every link of a validation that passes, each changeable. */
const passing = (): Links => ({
  license: { mispId: '100001', status: 'ACTIVE', expiresAt: LATER },
  misp: { status: 'Approved', isActive: true },
  partner: { id: 'P-A', organizationName: 'P-A Ltd', status: 'Active' },
  key: { partnerId: 'P-A', status: 'Active', expiresAt: LATER },
  policy: { ...policyRow({ id: 'pol-a', policyGroupId: 'group-a' }), groupActive: true },
});

const codeOf = (links: Links, apiKey = KEY) => {
  try {
    checkLinks(links, NOW, 'P-A', apiKey);
    return 'passes';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('validatePartnerMisp’s checks, in the spec’s order', () => {
  it('answers the key’s policy when every link holds', () => {
    expect(checkLinks(passing(), NOW, 'P-A', KEY)).toMatchObject({ policyId: 'pol-a', partnerId: 'P-A', partnerName: 'P-A Ltd', policyStatus: true });
  });

  it('names the first link that fails', () => {
    const broken: [string, (links: Links) => void][] = [
      ['PMS_PMP_020', (links) => (links.license = null)],
      ['PMS_PMP_025', (links) => (links.license!.status = 'SUSPENDED')],
      ['PMS_PMP_021', (links) => (links.license!.expiresAt = NOW)],
      ['PMS_MSP_005', (links) => (links.misp = null)],
      ['PMS_MSP_008', (links) => (links.misp!.status = 'Rejected')],
      ['PMS_PMP_025', (links) => (links.misp!.isActive = false)],
      ['PMS_PMP_005', (links) => (links.partner = null)],
      ['PMS_PMP_016', (links) => (links.partner!.status = 'De-Active')],
      ['PMS_PMP_007', (links) => (links.key = null)],
      ['PMS_PMP_007', (links) => (links.key!.status = 'De-Active')],
      ['PMS_PMP_007', (links) => (links.key!.expiresAt = EARLIER)],
      ['PMS_PMP_007', (links) => (links.key!.partnerId = 'P-B')],
      ['PMS_PMP_014', (links) => (links.policy = null)],
      ['PMS_PMP_019', (links) => (links.policy!.isActive = false)],
      ['PMS_PMP_023', (links) => (links.policy!.groupActive = false)],
    ];
    for (const [code, breakLink] of broken) {
      const links = passing();
      breakLink(links);
      expect(codeOf(links), code).toBe(code);
    }
    expect(codeOf(passing(), 'short')).toBe('PMS_PMP_007');
    // Two broken links: the earlier one in the spec's order speaks.
    const twice = passing();
    twice.partner!.status = 'De-Active';
    twice.misp!.isActive = false;
    expect(codeOf(twice)).toBe('PMS_PMP_025');
  });
});

/** A database whose notification listener comes up at once and can be taken down. */
function fakeDatabase() {
  let handlers: SubscriptionHandlers | undefined;
  const prisma = { $executeRawUnsafe: () => null, $transaction: () => Promise.resolve([]) } as unknown as PrismaClient;
  const database: Pick<Database, 'prisma' | 'subscribe'> = {
    prisma,
    subscribe: async (_channel, given) => {
      handlers = given;
      await given.up();
      return { connectionName: undefined, close: () => Promise.resolve() };
    },
  };
  return { database, notify: () => handlers!.message('pms_partner'), down: () => handlers!.down() };
}

/** The validation service over links read from memory, counting the reads, with the platform's bus and a live cache. */
async function validationWorld() {
  const world = partnerWorld();
  const links = passing();
  let reads = 0;
  const readLinks = () => {
    reads++;
    return Promise.resolve(structuredClone(links));
  };
  const cache = new LinksCache<Links>(createLogger('silent'), world.bus);
  const validation = new PartnerValidationService(
    readLinks,
    { license: { hashOf: (key) => `L:${key}` }, apiKeys: world.apiKeys },
    world.partners,
    world.clock,
    cache,
  );
  const db = fakeDatabase();
  await validation.start(db.database);
  return {
    ...world,
    ...db,
    validation,
    validate: (caller: { subject: string; roles: string[] } = { subject: 'ida', roles: ['ID_AUTHENTICATION'] }) =>
      validation.validate(caller, 'P-A', KEY, 'LICENSE'),
    reads: () => reads,
    change: (next: (links: Links) => void) => next(links),
  };
}

describe('the links cache: passing links kept until their owners publish a change', () => {
  it('reads once for repeated validations, again after each link owner’s event', async () => {
    const world = await validationWorld();
    await world.validate();
    await world.validate();
    expect(world.reads()).toBe(1);
    const events: [EventName, object][] = [
      ['license.changed', { mispId: '100001', status: 'SUSPENDED' }],
      ['misp.changed', { mispId: '100001' }],
      ['partner.changed', { partnerId: 'P-A' }],
      ['apiKey.changed', { partnerId: 'P-A', apiKeyId: 'key' }],
      ['policy.changed', { policyId: 'pol-a', policyGroupId: 'group-a' }],
    ];
    for (const [index, [name, payload]] of events.entries()) {
      await world.bus.publish(name, payload as never);
      await world.validate();
      expect(world.reads(), name).toBe(index + 2);
    }
  });

  it('answers a write of this process at once: a partner deactivated through its service fails the next validation', async () => {
    const world = await validationWorld();
    await world.validate();
    world.change((links) => (links.partner!.status = 'De-Active'));
    await world.partners.updatePartnerStatus(as.managerA, 'P-A', 'De-Active');
    await rejectsWith(world.validate(), 'PMS_PMP_016');
  });

  it('keeps no failing links, and nothing while the listener is down; another instance’s change (NOTIFY) empties it', async () => {
    const world = await validationWorld();
    world.change((links) => (links.key = null));
    await rejectsWith(world.validate(), 'PMS_PMP_007');
    await rejectsWith(world.validate(), 'PMS_PMP_007');
    expect(world.reads()).toBe(2);
    world.change((links) => (links.key = passing().key));
    await world.validate();
    world.notify();
    await world.validate();
    expect(world.reads()).toBe(4);
    world.down();
    await world.validate();
    await world.validate();
    expect(world.reads()).toBe(6);
  });

  it('stops hearing the events once stopped', async () => {
    const world = await validationWorld();
    await world.validation.stop();
    await world.bus.publish('partner.changed', { partnerId: 'P-A' });
    await world.validate();
    expect(world.reads()).toBe(1);
  });

  it('answers a partner manager only about its own groups’ partners and policies', async () => {
    const world = await validationWorld();
    expect((await world.validate(as.managerA)).policyId).toBe('pol-a');
    await rejectsWith(world.validate(as.managerB), 'PMS_PMP_009');
    world.change((links) => (links.policy = { ...links.policy!, policyGroupId: 'group-b' }));
    world.notify();
    await rejectsWith(world.validate(as.managerA), 'PMS_PMP_009');
  });
});

describe('the license key manager publishes a key’s change of status once written', () => {
  const key: LicenseRow = {
    keyHash: 'hash',
    id: 'license-1',
    createdBy: 'admin',
    keyHint: 'LLLL',
    mispId: '100001',
    expiresAt: LATER,
    status: 'ACTIVE',
    permissions: [],
    createdAt: NOW,
    updatedAt: NOW,
  };
  const licenseWorld = () => {
    const { bus, published } = recordingBus();
    const storage: LicenseStorage = fakeAsync<LicenseStorage>({
      byHash: (hash): LicenseRow | null => (hash === service.hashOf('KNOWN') ? key : null),
      setStatus: (_hash, status) => ({ ...key, status }),
      blockActiveOf: (mispId) => (mispId === '100001' ? 2 : 0),
    });
    const service: LicenseService = new LicenseService(storage, MASTER_KEY, clock(), { keyLength: 16, permissions: [] }, bus);
    return { service, published };
  };

  it('publishes license.changed after a status update and after blocking a MISP’s keys', async () => {
    const { service, published } = licenseWorld();
    await service.updateStatus('KNOWN', 'SUSPENDED');
    expect(await service.blockAllOf('100001')).toBe(2);
    expect(published).toEqual([
      ['license.changed', { mispId: '100001', status: 'SUSPENDED' }],
      ['license.changed', { mispId: '100001', status: 'BLOCKED' }],
    ]);
  });

  it('publishes nothing when nothing changed: an unknown key, a bad status, a MISP without active keys', async () => {
    const { service, published } = licenseWorld();
    await rejectsWith(service.updateStatus('UNKNOWN', 'SUSPENDED'), 'KER-LKM-004');
    await rejectsWith(service.updateStatus('KNOWN', 'PAUSED'), 'KER-LKM-010');
    expect(await service.blockAllOf('100002')).toBe(0);
    expect(published).toEqual([]);
  });
});
