import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { ADDRESS_DOCUMENT, BIOMETRICS, DOCUMENTS, identityOf, idrepoCalls, NAME, newRid } from '../support/identities.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { type Login, userLogin } from '../support/users.js';
import { refusalOf } from '../support/refusals.js';

let t: TestPlatform;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform) => {
  t = platform;
});

type Credentials = Record<string, string>;
const { send, ok, newUin, create } = idrepoCalls(() => t);

let processor: Credentials;
let ida: Credentials;
/** An admin with that role alone (the bootstrap admin holds every role). */
let admin: Login;

beforeAll(async () => {
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  ida = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token);
  admin = await userLogin(t, 'idrepo-admin', ['GLOBAL_ADMIN'], 'admin');
});

describe('ID repository identities', () => {
  it('creates an identity (ACTIVATED, entity URL) and reads it back by UIN and RID with each type', async () => {
    const uin = newUin();
    const rid = newRid();
    const created = await ok(create(processor, uin, rid));
    expect(created).toEqual({ status: 'ACTIVATED', entity: expect.stringMatching(new RegExp(`/idrepository/v1/identity/uin/${uin}$`)) });

    const plain = await ok(send(ida, 'GET', `/uin/${uin}`));
    expect(plain.status).toBe('ACTIVATED');
    expect(plain.identity).toEqual(identityOf(uin));
    expect(plain.documents).toEqual([]);
    const bio = await ok(send(ida, 'GET', `/uin/${uin}?type=bio`));
    expect(bio.documents).toEqual([{ category: 'individualBiometrics', value: BIOMETRICS.toString('base64') }]);
    const demo = await ok(send(ida, 'GET', `/uin/${uin}?type=demo`));
    expect(demo.documents).toEqual([{ category: 'proofOfAddress', value: ADDRESS_DOCUMENT.toString('base64') }]);
    const all = await ok(send(ida, 'GET', `/rid/${rid}?type=all`));
    expect(all.documents.map((document: any) => document.category)).toEqual(['individualBiometrics', 'proofOfAddress']);
    expect(all.identity.UIN).toBe(uin);
  });

  it('refuses a taken UIN or RID (IDR-IDC-012), bad input and schema violations, changing nothing', async () => {
    const uin = newUin();
    const rid = newRid();
    await ok(create(processor, uin, rid));
    await expectRejected(t, () => create(processor, uin), 'IDR-IDC-012', /UIN/);
    await expectRejected(t, () => create(processor, newUin(), rid), 'IDR-IDC-012', /RID/);
    await expectRejected(t, () => create(processor, newUin(), newRid(), { fullName: undefined }), 'IDR-IDS-005', /fullName/);
    await expectRejected(t, () => create(processor, newUin(), newRid(), { postalCode: 'AB-12' }), 'IDR-IDS-005', /postalCode/);
    await expectRejected(
      t,
      () => create(processor, newUin(), newRid(), {}, [{ category: 'fullName', value: 'AAAA' }]),
      'IDR-IDC-005',
      /not a document or biometric field/,
    );
    await expectRejected(t, () => create(processor, newUin(), newRid(), { proofOfAddress: undefined }), 'IDR-IDC-005', /does not hold/);
    await expectRejected(t, () => create(processor, '1234567890'), 'IDR-IDC-002', /UIN/);
    await expectRejected(t, () => create(processor, ''), 'IDR-IDC-001', /UIN/);
    await expectRejected(t, () => send(processor, 'POST', '/', { identity: identityOf(newUin()) }), 'IDR-IDC-001', /registrationId/);
    await expectRejected(t, () => send(processor, 'POST', '/', { registrationId: 'bad rid!', identity: identityOf(newUin()) }), 'IDR-IDC-002');
  });

  it('refuses a create or update whose envelope id is not the operation’s (IDR-IDC-002) or is missing (IDR-IDC-001), changing nothing', async () => {
    const uin = newUin();
    await ok(create(processor, uin));
    /** A call with exactly this envelope. */
    const raw = (method: string, body: Record<string, unknown>) => t.request(method, '/idrepository/v1/identity/', { body, headers: processor });
    const rid = newRid();
    const fresh = { registrationId: rid, biometricReferenceId: `bio-${rid}`, identity: identityOf(newUin()), documents: DOCUMENTS };
    const change = { registrationId: newRid(), identity: { UIN: uin, city: [{ language: 'eng', value: 'Rabat' }] } };
    const { id: _dropped, ...withoutId } = envelopeOf(fresh);

    await expectRejected(t, () => raw('POST', envelopeOf(fresh, { id: 'platform.id.update' })), 'IDR-IDC-002', /^Invalid Input Parameter - id\b/);
    await expectRejected(t, () => raw('POST', envelopeOf(fresh, { id: 'platform.test' })), 'IDR-IDC-002', /^Invalid Input Parameter - id\b/);
    await expectRejected(t, () => raw('POST', envelopeOf(fresh, { id: 42 })), 'IDR-IDC-002', /^Invalid Input Parameter - id\b/);
    await expectRejected(t, () => raw('POST', withoutId), 'IDR-IDC-001', /^Missing Input Parameter - id$/);
    await expectRejected(t, () => raw('POST', envelopeOf(fresh, { id: null })), 'IDR-IDC-001', /^Missing Input Parameter - id$/);
    await expectRejected(t, () => raw('PATCH', envelopeOf(change, { id: 'platform.id.create' })), 'IDR-IDC-002', /^Invalid Input Parameter - id\b/);
    await expectRejected(t, () => raw('PATCH', envelopeOf(change, { id: '' })), 'IDR-IDC-001', /^Missing Input Parameter - id$/);

    // The stored identity is as created; the same requests with the operation's id go through.
    expect((await ok(send(ida, 'GET', `/uin/${uin}`))).identity).toEqual(identityOf(uin));
    expect(await ok(raw('POST', envelopeOf(fresh, { id: 'platform.id.create' })))).toMatchObject({ status: 'ACTIVATED' });
    await ok(raw('PATCH', envelopeOf(change, { id: 'platform.id.update' })));
    expect((await ok(send(ida, 'GET', `/uin/${uin}`))).identity.city).toEqual([{ language: 'eng', value: 'Rabat' }]);
  });

  it('updates: attributes merged, documents replaced, status moved as MOSIP allows', async () => {
    const uin = newUin();
    await ok(create(processor, uin));
    const newAddress = Buffer.from('%PDF-1.4 a newer proof of address');
    const update = (over: Record<string, unknown>, docs?: unknown, status?: string) =>
      send(processor, 'PATCH', '/', { registrationId: newRid(), identity: { UIN: uin, ...over }, documents: docs, status });
    const changed = await ok(update({ city: [{ language: 'eng', value: 'Rabat' }] }, [{ category: 'proofOfAddress', value: newAddress.toString('base64') }]));
    expect(changed.status).toBe('ACTIVATED');
    const read = await ok(send(ida, 'GET', `/uin/${uin}?type=all`));
    expect(read.identity).toEqual(identityOf(uin, { city: [{ language: 'eng', value: 'Rabat' }] }));
    expect(read.documents).toEqual([
      { category: 'individualBiometrics', value: BIOMETRICS.toString('base64') },
      { category: 'proofOfAddress', value: newAddress.toString('base64') },
    ]);
    // A document field emptied takes its file with it, row and object.
    const objects = () => t.platform.deps.services.objectStore.list('idrepo/', 1000);
    const before = (await objects()).length;
    await ok(update({ proofOfAddress: null }));
    const emptied = await ok(send(ida, 'GET', `/uin/${uin}?type=all`));
    expect(emptied.identity.proofOfAddress).toBeNull();
    expect(emptied.documents).toEqual([{ category: 'individualBiometrics', value: BIOMETRICS.toString('base64') }]);
    expect((await objects()).length).toBe(before - 1);
    expect((await ok(update({}, undefined, 'BLOCKED'))).status).toBe('BLOCKED');
    expect((await ok(update({}, undefined, 'DEACTIVATED'))).status).toBe('DEACTIVATED');
    await expectRejected(t, () => update({}, undefined, 'ACTIVATED'), 'IDR-IDC-003', /DEACTIVATED/);
    await expectRejected(t, () => update({ postalCode: 'nope' }), 'IDR-IDC-003');
    await expectRejected(t, () => send(processor, 'PATCH', '/', { registrationId: newRid(), identity: { UIN: newUin() } }), 'IDR-IDC-007');
  });

  it('loses no change when updates of one identity race: each is applied on the others’ result', async () => {
    const uin = newUin();
    await ok(create(processor, uin));
    const changes = [
      { addressLine2: [{ language: 'eng', value: 'Block 4' }] },
      { email: 'racing@example.org' },
      { city: [{ language: 'eng', value: 'Rabat' }] },
      { postalCode: '10000' },
    ];
    const answers = await Promise.all(changes.map((over) => send(processor, 'PATCH', '/', { registrationId: newRid(), identity: { UIN: uin, ...over } })));
    for (const { json } of answers) expect(json.errors, JSON.stringify(json.errors)).toBeOneOf([null, []]);
    const read = await ok(send(ida, 'GET', `/uin/${uin}`));
    expect(read.identity).toEqual(identityOf(uin, Object.assign({}, ...changes)));
    // Each update's registration is recorded against the identity.
    const identityId = (await t.platform.deps.services.identities.find({ uin })).id;
    expect(await t.platform.deps.prisma.identityRegistration.count({ where: { identityId } })).toBe(1 + changes.length);
  });

  it('refuses callers outside their roles', async () => {
    const uin = newUin();
    await ok(create(processor, uin));
    const resident = cookieHeader((await t.clientToken(['RESIDENT'], 'resident')).token);
    await expectRejected(t, () => send(resident, 'GET', `/uin/${uin}`), 'KER-ATH-403');
    await expectRejected(t, () => create(ida, newUin()), 'KER-ATH-403');
    await expectRejected(t, () => create(admin.cookie, newUin()), 'KER-ATH-403');
    await expectRejected(t, () => send(admin.cookie, 'GET', `/uin/${uin}`), 'KER-ATH-403');
  });

  it('keeps nothing readable at rest, and refuses a tampered row or file', async () => {
    /** IDR-IDS-003, and nothing changed but the record of the attempt. */
    const refusedRead = async (urlPath: string) => {
      const before = await t.snapshot();
      const { json } = await send(ida, 'GET', urlPath);
      expect(json.errors[0].errorCode).toBe('IDR-IDS-003');
      expect(json.response).toBeNull();
      expect(await t.snapshot()).toEqual({ ...before, idrepo_read_audit: before.idrepo_read_audit! + 1 });
    };
    const uin = newUin();
    await ok(create(processor, uin));
    const prisma = t.platform.deps.prisma;
    const dump = JSON.stringify(
      await Promise.all([
        prisma.identity.findMany(),
        prisma.identityFile.findMany(),
        prisma.identityRegistration.findMany(),
        prisma.identityReadAudit.findMany(),
      ]),
    );
    const objectsDir = path.join(t.platform.deps.config.dataDir, 'objects');
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        return statSync(full).isDirectory() ? walk(full) : [full];
      });
    })(objectsDir);
    expect(files.length).toBeGreaterThan(0);
    const stored = dump + files.map((file) => readFileSync(file, 'latin1')).join('');
    for (const secret of [uin, NAME, 'Lantern', ADDRESS_DOCUMENT.toString('latin1'), 'unique text 7c1f', 'ZmluZ2VycHJpbnQ', 'fingerprint template']) {
      expect(stored.includes(secret), secret).toBe(false);
    }

    // A flipped byte of the stored identity: an error, not data.
    const row = await prisma.identity.findFirstOrThrow({ where: { uinHash: t.platform.deps.services.idrepoCipher.lookup(uin) } });
    const flipped = row.identityData.slice(0, -5) + (row.identityData.at(-5) === 'A' ? 'B' : 'A') + row.identityData.slice(-4);
    await prisma.identity.update({ where: { id: row.id }, data: { identityData: flipped } });
    await refusedRead(`/uin/${uin}`);
    await prisma.identity.update({ where: { id: row.id }, data: { identityData: row.identityData } });
    expect((await ok(send(ida, 'GET', `/uin/${uin}`))).identity.UIN).toBe(uin);

    // Another identity's document put in place of this one's: refused (bound to its place).
    const other = newUin();
    await ok(create(processor, other));
    const otherRow = await prisma.identity.findFirstOrThrow({ where: { uinHash: t.platform.deps.services.idrepoCipher.lookup(other) } });
    const [mine, theirs] = await Promise.all(
      [row.id, otherRow.id].map((identityId) => prisma.identityFile.findFirstOrThrow({ where: { identityId, category: 'proofOfAddress' } })),
    );
    writeFileSync(path.join(objectsDir, mine!.objectKey), readFileSync(path.join(objectsDir, theirs!.objectKey)));
    await refusedRead(`/uin/${uin}?type=demo`);
    expect((await ok(send(ida, 'GET', `/uin/${uin}?type=bio`))).documents).toHaveLength(1);
  });

  it('audits every read; admins see status and audit trail, only the repository operators the attributes', async () => {
    const uin = newUin();
    await ok(create(processor, uin));
    t.clock.advance(1000);
    await ok(send(ida, 'GET', `/uin/${uin}?type=bio`));
    t.clock.advance(1000);
    const query = `{ identity(uin: "${uin}") { id status reads { totalCount edges { node { readBy roles parts lookup } } } } }`;
    const seen = await t.graphql(query, {}, admin.bearer);
    expect(seen.errors).toBeUndefined();
    expect(seen.data.identity.status).toBe('ACTIVATED');
    expect(seen.data.identity.id).not.toContain(uin);
    // The admin's look-up itself is in the trail, newest first.
    expect(seen.data.identity.reads.edges.map((e: any) => e.node)).toMatchObject([
      { readBy: 'idrepo-admin', roles: ['GLOBAL_ADMIN'], parts: ['record'], lookup: 'UIN' },
      { roles: ['ID_AUTHENTICATION'], parts: ['identity', 'biometrics'], lookup: 'UIN' },
    ]);
    const refused = await t.graphql(`{ identity(uin: "${uin}") { demographics } }`, {}, admin.bearer);
    expect(refusalOf(refused)!.code).toBe('KER-ATH-403');
    const operator = (await t.clientToken(['ID_REPOSITORY'], 'admin')).token;
    t.clock.advance(1000);
    const allowed = await t.graphql(`{ identity(uin: "${uin}") { demographics } }`, {}, bearer(operator));
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data.identity.demographics.fullName[0].value).toBe(NAME);
    // That read is audited too, beside the look-up that reached it.
    t.clock.advance(1000);
    const trail = await t.graphql(`{ identity(uin: "${uin}") { reads { totalCount edges { node { roles parts lookup } } } } }`, {}, bearer(operator));
    expect(trail.data.identity.reads.totalCount).toBe(6);
    const nodes = trail.data.identity.reads.edges.map((e: any) => e.node);
    expect(nodes[0]).toEqual({ roles: ['ID_REPOSITORY'], parts: ['record'], lookup: 'UIN' });
    expect(nodes.slice(1, 3)).toEqual(
      expect.arrayContaining([
        { roles: ['ID_REPOSITORY'], parts: ['identity'], lookup: 'PORTAL' },
        { roles: ['ID_REPOSITORY'], parts: ['record'], lookup: 'UIN' },
      ]),
    );
  });

  it('records in the trail a VID that ID authentication resolved to its UIN, and every admin look-up by UIN, RID or VID, through REST and GraphQL', async () => {
    const uin = newUin();
    const rid = newRid();
    await ok(create(processor, uin, rid));
    const prisma = t.platform.deps.prisma;
    const { id } = await prisma.identity.findUniqueOrThrow({ where: { uinHash: t.platform.deps.services.idrepoCipher.lookup(uin) } });
    const trail = async () =>
      (await prisma.identityReadAudit.findMany({ where: { identityId: id }, orderBy: [{ readAt: 'asc' }, { id: 'asc' }] })).map(({ roles, parts, lookup }) => ({
        roles,
        parts,
        lookup,
      }));
    const vidCall = (headers: Credentials, method: string, urlPath: string, body?: unknown) =>
      t.request(method, '/idrepository/v1/vid' + urlPath, { body: body === undefined ? undefined : envelopeOf(body), headers });
    const vid = (await ok(vidCall(processor, 'POST', '', { vidType: 'Temporary', UIN: uin }))).VID as string;
    expect(await trail()).toEqual([]);

    // ID authentication resolves the VID: REST, then GraphQL.
    expect((await ok(vidCall(ida, 'GET', `/${vid}`))).UIN).toBe(uin);
    t.clock.advance(1000);
    const idaBearer = bearer(ida.cookie!.replace('Authorization=Platform-Token', ''));
    expect((await t.graphql('query($v: String!) { uinByVid(vid: $v) }', { v: vid }, idaBearer)).data.uinByVid).toBe(uin);
    const resolved = { roles: ['ID_AUTHENTICATION'], parts: ['uin'], lookup: 'VID' };
    expect(await trail()).toEqual([resolved, resolved]);

    // An admin's look-ups without the attributes, by each key; one that finds nothing records nothing.
    for (const [key, value] of [
      ['uin', uin],
      ['rid', rid],
      ['vid', vid],
    ]) {
      t.clock.advance(1000);
      const found = await t.graphql(`query($v: String) { identity(${key}: $v) { status } }`, { v: value }, admin.bearer);
      expect(found).toEqual({ data: { identity: { status: 'ACTIVATED' } } });
    }
    const looked = (lookup: string) => ({ roles: ['GLOBAL_ADMIN'], parts: ['record'], lookup });
    expect(await trail()).toEqual([resolved, resolved, looked('UIN'), looked('RID'), looked('VID')]);
    const before = await prisma.identityReadAudit.count();
    expect((await t.graphql('query($v: String) { identity(uin: $v) { status } }', { v: newUin() }, admin.bearer)).data.identity).toBeNull();
    expect((await t.graphql('query($v: String) { identity(rid: $v) { status } }', { v: newRid() }, admin.bearer)).data.identity).toBeNull();
    expect(await prisma.identityReadAudit.count()).toBe(before);

    // A VID that no longer resolves gives no UIN, and records no read.
    await ok(vidCall(processor, 'PATCH', `/${vid}`, { vidStatus: 'REVOKED' }));
    await expectRejected(t, () => vidCall(ida, 'GET', `/${vid}`), 'IDR-VID-001');
    expect(await prisma.identityReadAudit.count()).toBe(before);
  });

  it('IDR-IDS-007, IDR-IDC-006 and IDR-IDC-004: master data, database and platform failures, with nothing left behind', async () => {
    const prisma = t.platform.deps.prisma;
    const objects = () => t.platform.deps.services.objectStore.list('idrepo/', 100_000);
    const aside = async (table: string, work: () => Promise<void>) => {
      await prisma.$executeRawUnsafe(`ALTER TABLE ${table} RENAME TO ${table}_away`);
      try {
        await work();
      } finally {
        await prisma.$executeRawUnsafe(`ALTER TABLE ${table}_away RENAME TO ${table}`);
      }
    };
    await aside('md_id_schema', () => expectRejected(t, () => create(processor, newUin()), 'IDR-IDS-007'));
    const before = await objects();
    // The files are written before the rows: a failing row write takes them back.
    await aside('idrepo_identity_file', () => expectRejected(t, () => create(processor, newUin()), 'IDR-IDC-006'));
    expect(await objects()).toEqual(before);
    await aside('idrepo_identity', async () => {
      const { json } = await send(ida, 'GET', `/uin/${newUin()}`);
      expect(json.errors).toEqual([{ errorCode: 'IDR-IDC-004', message: expect.any(String) }]);
      expect(json.errors[0].message).not.toMatch(/idrepo_identity|relation|prisma/i);
    });
  });
});
