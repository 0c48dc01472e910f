// GET bio-dedupe/biometricfile/{referenceid} with de-duplication by an ABIS (REGPROC_DEDUPE=abis): the
// registration's CBEFF is served only by the rules of the live data share the platform made for the
// ABIS's insert (encrypted for the ABIS partner's certificate, counted against the share, expiring) and
// each fetch is audited. No broker here: the insert waits in its outbox, its data share already made.
// The body is opened as the mock ABIS opens a data share, not with the platform's code.
import { createPrivateKey } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutExceptions } from '../../lib/packet/cbeff.js';
import { decodeShareBody, decryptShare } from '../../tools/mock-abis/datashare.js';
import { expectRejected } from '../support/assertions.js';
import { idrepoCalls } from '../support/identities.js';
import { bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { selfSignedKey, type TestKey } from '../support/certificates.js';
import { REGPROC, registrationClient, type BuiltPacket } from '../support/regproc.js';
import { waitFor } from '../support/wait.js';

let t: TestPlatform;
let abisKey: TestKey;
let packet: BuiltPacket;
let path: string;
let abis: { clientId: string; token: string };
const lines: string[] = [];

beforeAll(async () => {
  t = await startTestPlatform(
    { PLATFORM_SAMPLE_DATA: 'true', REGPROC_DEDUPE: 'abis', ABIS_DATASHARE_TRANSACTIONS_ALLOWED: '2', ABIS_PING_INTERVAL_SECONDS: '0' },
    undefined,
    { logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) },
  );
  const admin = cookieHeader(await t.adminToken());
  abisKey = await selfSignedKey('partner-default-abis');
  const uploaded = await t.request('POST', '/v1/keymanager/uploadOtherDomainCertificate', {
    body: envelopeOf({ applicationId: 'PARTNER', referenceId: 'partner-default-abis', certificateData: abisKey.certificatePem }),
    headers: admin,
  });
  expect(uploaded.json.errors).toBeNull();
  const client = await registrationClient(t, admin);
  packet = client.build('biometric-file-resident');
  await client.submit(packet);
  // The de-duplication stage made the share and wrote its insert to the outbox: the registration waits for the ABIS.
  await waitFor(async () => (await t.platform.deps.prisma.abisRequest.count({ where: { rid: packet.rid, operation: 'INSERT' } })) > 0, 'the insert', 30_000);
  const row = await t.platform.deps.prisma.registration.findUnique({ where: { rid: packet.rid } });
  path = `${REGPROC}/bio-dedupe/biometricfile/${row!.bioRefId}`;
  abis = await t.clientToken(['ABIS'], 'registrationprocessor');
});

afterAll(async () => {
  await t?.close();
});

const fetchFile = (token = abis.token) => fetch(`${t.baseUrl}${path}`, { headers: bearer(token) });
const opened = (text: string) => decryptShare(decodeShareBody(Buffer.from(text, 'latin1')), createPrivateKey(abisKey.privateKeyPem), abisKey.thumbprint);
const fetchesLeft = async () => (await t.platform.deps.prisma.dataShare.findMany({ where: { rid: packet.rid } })).map((share) => share.transactionsLeft);

describe('biometric file with an ABIS', () => {
  it("serves the CBEFF as the share's data share serves it, encrypted for the ABIS, one fetch counted, logged while there is no identity", async () => {
    expect(await fetchesLeft()).toEqual([2]);
    const response = await fetchFile();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/octet-stream/);
    const text = await response.text();
    // VER_R2: URL-safe base64 with padding, as GET /v1/datashare/get answers.
    expect(text).toMatch(/^[A-Za-z0-9_-]+=*$/);
    expect(opened(text)).toEqual(withoutExceptions(packet.resident.cbeff));
    expect(await fetchesLeft()).toEqual([1]);
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'biometric file served to the ABIS (no identity yet)');
    expect(logged).toEqual([expect.objectContaining({ level: 30, rid: packet.rid, readBy: abis.clientId })]);
    // Nothing of the resident in the log: no e-mail, no biometric, no share.
    const log = lines.join('\n');
    expect(log).not.toContain(packet.resident.identity.email as string);
    expect(log).not.toContain(text.slice(0, 64));
  });

  it("records each fetch in the identity's read trail once the registration has an identity", async () => {
    const processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
    const { ok, create, newUin } = idrepoCalls(() => t);
    await ok(create(processor, newUin(), packet.rid));
    const identity = await t.platform.deps.services.identities.byRegistration(packet.rid);
    const before = await t.platform.deps.prisma.identityReadAudit.count({ where: { identityId: identity!.id } });
    const response = await fetchFile();
    expect(opened(await response.text())).toEqual(withoutExceptions(packet.resident.cbeff));
    const reads = await t.platform.deps.prisma.identityReadAudit.findMany({ where: { identityId: identity!.id }, orderBy: { readAt: 'asc' } });
    expect(reads).toHaveLength(before + 1);
    expect(reads.at(-1)).toMatchObject({ readBy: abis.clientId, roles: ['ABIS'], parts: ['biometrics'], lookup: 'RID' });
    expect(await fetchesLeft()).toEqual([0]);
  });

  it('refuses another role with KER-ATH-403 and an unknown reference with RPR-MVS-001, changing nothing', async () => {
    const operator = bearer((await t.clientToken(['GLOBAL_ADMIN', 'REGISTRATION_PROCESSOR'])).token);
    await expectRejected(t, () => t.request('GET', path, { headers: operator }), 'KER-ATH-403');
    await expectRejected(t, () => t.request('GET', `${REGPROC}/bio-dedupe/biometricfile/unknown-reference`, { headers: bearer(abis.token) }), 'RPR-MVS-001');
  });

  it('refuses a fetch beyond the transactions allowed, and after the share expired, with RPR-MVS-001, changing nothing', async () => {
    // The insert's share is spent (two fetches above).
    await expectRejected(t, () => t.request('GET', path, { headers: bearer(abis.token) }), 'RPR-MVS-001');
    // A new share (a retry's) serves twice more, and no more.
    const { shareKey } = await t.platform.deps.services.dataShares.create(packet.rid);
    expect((await fetchFile()).status).toBe(200);
    expect((await fetchFile()).status).toBe(200);
    expect((await t.platform.deps.prisma.dataShare.findUnique({ where: { shareKey } }))?.transactionsLeft).toBe(0);
    await expectRejected(t, () => t.request('GET', path, { headers: bearer(abis.token) }), 'RPR-MVS-001');
    // One more share, unused when it expires.
    await t.platform.deps.services.dataShares.create(packet.rid);
    t.clock.set(new Date(t.clock.now().getTime() + 61 * 60_000));
    // A token of the new time: the old one expired meanwhile.
    const later = await t.clientToken(['ABIS'], 'registrationprocessor');
    await expectRejected(t, () => t.request('GET', path, { headers: bearer(later.token) }), 'RPR-MVS-001');
  });
});
