import { S3Client, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { BIOMETRICS, idrepoCalls } from '../support/identities.js';
import { cookieHeader, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { S3RVER_KEY, S3RVER_SECRET, startS3, type TestS3 } from '../support/s3.js';

let t: TestPlatform;
let s3: TestS3;
let processor: Record<string, string>;
const { send, ok, newUin, create } = idrepoCalls(() => t);

beforeAll(async () => {
  s3 = await startS3('idrepo');
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', OBJECT_STORE_URL: s3.url });
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

/** What the bucket holds, read with the S3 client itself. */
async function bucketKeys(): Promise<string[]> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_SECRET },
  });
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (listed.Contents ?? []).map((object) => object.Key!).sort();
  } finally {
    client.destroy();
  }
}

describe('ID repository on an S3-compatible object store', () => {
  it('keeps documents and biometrics in the bucket, encrypted, and reads them back', async () => {
    const uin = newUin();
    await ok(create(processor, uin));
    const keys = await bucketKeys();
    expect(keys).toHaveLength(2);
    expect(keys.every((key) => key.startsWith('idrepo/'))).toBe(true);
    const read = await ok(send(processor, 'GET', `/uin/${uin}?type=bio`));
    expect(read.documents).toEqual([{ category: 'individualBiometrics', value: BIOMETRICS.toString('base64') }]);
  });

  it('leaves nothing behind when creates race for one UIN: one wins, the others get IDR-IDC-012', async () => {
    const before = await bucketKeys();
    const uin = newUin();
    const answers = await Promise.all(Array.from({ length: 4 }, () => create(processor, uin)));
    const codes = answers.map(({ json }) => json.errors?.[0]?.errorCode ?? 'ok').sort();
    expect(codes).toEqual(['IDR-IDC-012', 'IDR-IDC-012', 'IDR-IDC-012', 'ok']);
    expect(await bucketKeys()).toHaveLength(before.length + 2);
  });

  it('answers IDR-IDS-004 when the store fails, with no row written', async () => {
    await s3.stop();
    await expectRejected(t, () => create(processor, newUin()), 'IDR-IDS-004');
  });
});
