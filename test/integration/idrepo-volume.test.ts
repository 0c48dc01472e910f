// One run, on PostgreSQL (the production database; half the time of PGlite here): the REST suites cover both databases, and this one is long.
import { describe, expect, it } from 'vitest';
import { BIOMETRICS, ADDRESS_DOCUMENT, DOCUMENTS, identityOf, idrepoCalls, newRid } from '../support/identities.js';
import { cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';

const COUNT = 10_000;
const TYPES = [undefined, 'bio', 'demo', 'all'] as const;
let t: TestPlatform;
useTestPlatform(
  { PLATFORM_SAMPLE_DATA: 'true' },
  (platform) => {
    t = platform;
  },
  { database: 'postgres' },
);
const { send, newUin } = idrepoCalls(() => t);

/** Runs `work` over the items, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

describe('ID repository at volume', () => {
  it('stores 10,000 identities and reads each back by UIN and by RID, every type in turn', async () => {
    const identities = t.platform.deps.services.identities;
    const caller = { subject: 'volume-test', roles: ['REGISTRATION_PROCESSOR'] };
    const uins = new Set<string>();
    while (uins.size < COUNT) uins.add(newUin());
    const people = [...uins].map((uin) => ({ uin, rid: newRid() }));
    await inParallel(people, 8, async ({ uin, rid }) => {
      await identities.create(caller, { registrationId: rid, biometricReferenceId: `bio-${rid}`, identity: identityOf(uin), documents: DOCUMENTS });
    });
    expect(await t.platform.deps.prisma.identity.count()).toBe(COUNT);

    const ida = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token);
    const expected = { bio: [BIOMETRICS], demo: [ADDRESS_DOCUMENT], all: [BIOMETRICS, ADDRESS_DOCUMENT] };
    let wrong = 0;
    await inParallel(people, 8, async ({ uin, rid }, index) => {
      for (const [path, type] of [
        [`/uin/${uin}`, TYPES[index % 4]],
        [`/rid/${rid}`, TYPES[(index + 1) % 4]],
      ] as const) {
        const { json } = await send(ida, 'GET', type ? `${path}?type=${type}` : path);
        const documents = (json.response?.documents ?? []).map((document: { value: string }) => Buffer.from(document.value, 'base64'));
        const want = type ? expected[type] : [];
        if (json.response?.identity?.UIN !== uin || documents.length !== want.length || documents.some((doc: Buffer, i: number) => !doc.equals(want[i]!)))
          wrong++;
      }
    });
    expect(wrong).toBe(0);
  }, 900_000);
});
