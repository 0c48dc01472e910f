import { describe, expect, it } from 'vitest';
import type { LicenseView } from '../../subgraphs/license/service.js';
import { mispName, mispNameKey } from '../../subgraphs/partner/misps/names.js';
import { MispService, type MispLicenses } from '../../subgraphs/partner/misps/service.js';
import { clock, fakeAsync, mispRow, mispsTable, NOW, recordingBus, rejectsWith } from './partner-fakes.js';

/** MISPs over an in-memory table, with a license key manager that issues keys (or fails to, when told). */
function mispWorld(failIssuing = false) {
  const table = mispsTable([
    mispRow({ id: '100001' }),
    mispRow({ id: '100002', status: 'Approved' }),
    mispRow({ id: '100003', organizationName: 'Acme', nameKey: 'acme' }),
  ]);
  const { bus, published } = recordingBus();
  const issued: string[] = [];
  const license = fakeAsync<MispLicenses>({
    generate: (_caller, mispId, expiry) => {
      if (failIssuing) throw new Error('the key store is down');
      issued.push(mispId);
      return { licenseKey: 'L'.repeat(16), mispId, expiresAt: new Date(expiry) } as LicenseView;
    },
    blockAllOf: () => 1,
  });
  const misps = new MispService(table.storage, clock(), license, { mispLicenseDays: 10 }, bus);
  return { misps, table: table.misps, published, issued };
}

describe('MISP names', () => {
  it('are kept in NFKC without invisible characters, spacing collapsed; compared case-folded', () => {
    expect(mispName('  Ａｃｍｅ\u200b   Corp ')).toBe('Acme Corp');
    expect(mispNameKey('STRASSE')).toBe(mispNameKey('straße'));
    expect(mispNameKey('Acme  corp')).toBe(mispNameKey('ACME CORP'));
  });
});

describe('MISPs: registered waiting, decided once, switched off and on', () => {
  it('registers a MISP waiting for its decision, refusing a name that is another’s by its key', async () => {
    const world = mispWorld();
    const created = await world.misps.create('admin', { organizationName: 'Life  Bank', emailId: 'a@b.example', address: 'Quay 3' });
    expect(created).toMatchObject({ organizationName: 'Life Bank', nameKey: 'life bank', status: 'Active' });
    expect(created.id).toMatch(/^\d{6}$/);
    await rejectsWith(world.misps.create('admin', { organizationName: 'ACME', emailId: 'a@b.example', address: 'Quay 3' }), 'PMS_MSP_003');
    await rejectsWith(world.misps.create('admin', { organizationName: '\u200b', emailId: 'a@b.example', address: 'Quay 3' }), 'PMS_COR_002');
  });

  it('approves a waiting MISP with a license key for the configured days, publishing misp.changed', async () => {
    const world = mispWorld();
    const { misp, license } = await world.misps.decide('admin', '100001', 'Approved');
    expect(misp).toMatchObject({ status: 'Approved', updatedBy: 'admin', updatedAt: NOW });
    expect(license).toEqual({
      mispId: '100001',
      mispLicenseKey: 'L'.repeat(16),
      mispLicenseKeyExpiry: new Date(NOW.getTime() + 10 * 86_400_000),
      mispLicenseKeyStatus: 'Active',
    });
    expect(world.published).toEqual([['misp.changed', { mispId: '100001' }]]);
  });

  it('decides once: a decided MISP, an unknown one or another decision change and publish nothing', async () => {
    const world = mispWorld();
    await rejectsWith(world.misps.decide('admin', '100002', 'Rejected'), 'PMS_COR_002');
    await rejectsWith(world.misps.decide('admin', '999999', 'Approved'), 'PMS_MSP_005');
    await rejectsWith(world.misps.decide('admin', '100001', 'Maybe'), 'PMS_COR_002');
    expect(world.table.get('100002')?.status).toBe('Approved');
    expect(world.published).toEqual([]);
  });

  it('publishes a decision written even when issuing its key fails afterwards', async () => {
    const world = mispWorld(true);
    await expect(world.misps.decide('admin', '100001', 'Approved')).rejects.toThrow('the key store is down');
    expect(world.table.get('100001')?.status).toBe('Approved');
    expect(world.published).toEqual([['misp.changed', { mispId: '100001' }]]);
  });

  it('switches a MISP off and on, publishing each; refuses another status', async () => {
    const world = mispWorld();
    expect((await world.misps.setActive('admin', '100002', 'De-Active')).isActive).toBe(false);
    expect((await world.misps.setActive('admin', '100002', 'Active')).isActive).toBe(true);
    await rejectsWith(world.misps.setActive('admin', '100002', 'Paused'), 'PMS_COR_002');
    expect(world.published).toEqual([
      ['misp.changed', { mispId: '100002' }],
      ['misp.changed', { mispId: '100002' }],
    ]);
  });

  it('updates only what is given (PMS_MSP_004 for nothing), refusing another MISP’s name (PMS_MSP_003)', async () => {
    const world = mispWorld();
    await rejectsWith(world.misps.update('admin', '100001', { emailId: null }), 'PMS_MSP_004');
    await rejectsWith(world.misps.update('admin', '100001', { organizationName: 'ａｃｍｅ' }), 'PMS_MSP_003');
    expect(await world.misps.update('admin', '100001', { address: 'Pier 9' })).toMatchObject({ address: 'Pier 9', emailId: '100001@misp.example.org' });
  });

  it('regenerates the key of an approved MISP only, after blocking its keys', async () => {
    const world = mispWorld();
    await rejectsWith(world.misps.regenerateLicense('admin', '100001'), 'PMS_COR_002');
    expect((await world.misps.regenerateLicense('admin', '100002')).mispId).toBe('100002');
    expect(world.issued).toEqual(['100002']);
  });
});
