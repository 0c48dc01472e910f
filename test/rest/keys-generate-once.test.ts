// Requests of one instance racing to a key pair: the first use of a pair that
// has no key yet generates one key, whoever asks at the same moment, and
// racing rotations leave one key in force. On both databases: on PGlite's one
// connection the pair's lock must not block the generation it guards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBase64Any } from '../../lib/crypto/envelope.js';
import { cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';

const SUBJECT = {
  commonName: 'kernel.example.org',
  country: 'MA',
  state: 'Rabat-Sale',
  location: 'Rabat',
  organization: 'Identity Platform',
  organizationUnit: 'Kernel',
};
/** The certificate thumbprint a VER_R2 block names (after its 6-byte version). */
const thumbprintOf = (sealed: string) => decodeBase64Any(sealed).subarray(6, 38).toString('hex');

describe.each(['postgres', 'pglite'] as const)('keys generated once, on %s', (kind) => {
  let t: TestPlatform;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await startTestPlatform({}, undefined, { database: kind });
    auth = cookieHeader(await t.adminToken());
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = async (method: string, urlPath: string, body?: unknown) =>
    (await t.request(method, urlPath, { body: body === undefined ? undefined : envelopeOf(body), headers: auth })).json;
  /** The pair's rows: all of them, and those in force now. */
  async function rows(applicationId: string, referenceId = '') {
    const now = t.clock.now();
    const all = await t.platform.database.prisma.keyStoreEntry.findMany({ where: { applicationId, referenceId } });
    return { all, live: all.filter((row) => row.validFrom <= now && row.validTo > now && (!row.retiredAt || row.retiredAt > now)) };
  }

  it('generates one key for requests racing to a pair that has none', async () => {
    // The pairs are untouched by the start: the requests below are their first use.
    expect((await rows('KERNEL')).all).toHaveLength(0);
    expect((await rows('KERNEL', 'SIGN')).all).toHaveLength(0);
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => call('GET', '/v1/keymanager/getCertificate?applicationId=KERNEL&referenceId=SIGN')),
      ...Array.from({ length: 4 }, (_, i) => call('POST', '/v1/cryptomanager/encrypt', { applicationId: 'KERNEL', data: `racing ${i}` })),
    ]);
    for (const answer of answers) expect(answer.errors ?? []).toEqual([]);
    const master = await rows('KERNEL');
    const signing = await rows('KERNEL', 'SIGN');
    expect(master.all).toHaveLength(1);
    expect(signing.all).toHaveLength(1);
    // Every answer names the one key: the same certificate, data sealed for the same thumbprint.
    expect(new Set(answers.slice(0, 4).map((answer) => answer.response.certificate))).toEqual(new Set([signing.all[0]!.certificate]));
    expect(new Set(answers.slice(4).map((answer) => thumbprintOf(answer.response.data)))).toEqual(new Set([master.all[0]!.thumbprint]));
  });

  it('leaves one key in force when rotations race', async () => {
    const first = await call('GET', '/v1/keymanager/getCertificate?applicationId=DATASHARE');
    expect((await rows('DATASHARE')).all.map((row) => row.certificate)).toEqual([first.response.certificate]);
    const rotated = await Promise.all(
      Array.from({ length: 3 }, () => call('POST', '/v1/keymanager/generateMasterKey/Certificate', { applicationId: 'DATASHARE', force: true, ...SUBJECT })),
    );
    for (const answer of rotated) expect(answer.errors ?? []).toEqual([]);
    const certificates = rotated.map((answer) => answer.response.certificate as string);
    expect(new Set(certificates).size).toBe(3);
    const after = await rows('DATASHARE');
    expect(after.all).toHaveLength(4);
    expect(after.live).toHaveLength(1);
    expect(certificates).toContain(after.live[0]!.certificate);
    expect((await call('GET', '/v1/keymanager/getCertificate?applicationId=DATASHARE')).response.certificate).toBe(after.live[0]!.certificate);
  });
});
