// Uploaded documents are scanned by clamd before they are stored (scripts/clamd.sh: a local clamd with
// the platform's EICAR test signatures, started as the registration processor's virus tests start it): an
// infected document, or one the scanner cannot decide on, is refused with PRG_PAM_DOC_010 and changes nothing.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { applicant, createApplication } from '../support/prereg.js';
import { documentRequest, pdfWith, uploadDocument } from '../support/prereg-documents.js';

const CLAMD_URL = process.env.CLAMD_URL || 'tcp://127.0.0.1:3310';
/** Nothing listens there: every scan fails to connect. */
const NO_CLAMD_URL = 'tcp://127.0.0.1:1';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Two halves, so that this file is no signature hit itself.
const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANT' + 'IVIRUS-TEST-FILE!$H+H*', 'latin1');

let scanned: TestPlatform;
let unscannable: TestPlatform;
beforeAll(async () => {
  await promisify(execFile)('bash', ['scripts/clamd.sh', 'start'], { cwd: ROOT, timeout: 300_000 });
  [scanned, unscannable] = await Promise.all([
    startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', CLAMD_URL }),
    startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', CLAMD_URL: NO_CLAMD_URL, CLAMD_TIMEOUT_MS: '2000' }),
  ]);
}, 300_000);
afterAll(async () => {
  await Promise.all([scanned?.close(), unscannable?.close()]);
});

/** An application of a signed-in applicant on a platform: their cookie and its id. */
async function applicationOn(t: TestPlatform): Promise<{ cookie: Record<string, string>; preRegId: string }> {
  const cookie = await applicant(t, 'amina@example.org');
  return { cookie, preRegId: (await createApplication(t, cookie)).json.response.preRegistrationId };
}

describe('virus scan of uploaded documents', () => {
  it('refuses the EICAR test file, alone or inside a PDF, and stores a clean document after its scan', async () => {
    const { cookie, preRegId } = await applicationOn(scanned);
    const upload = (name: string, bytes: Buffer) => () => uploadDocument(scanned, cookie, preRegId, documentRequest(), { file: { name, bytes } });
    await expectRejected(scanned, upload('eicar.pdf', EICAR), 'PRG_PAM_DOC_010');
    await expectRejected(scanned, upload('lease.pdf', Buffer.concat([pdfWith('lease'), EICAR])), 'PRG_PAM_DOC_010');
    const clean = await upload('lease.pdf', pdfWith('lease'))();
    expect(clean.json.errors).toBeNull();
    expect(clean.json.response.docFileFormat).toBe('pdf');
  });

  it('refuses a document the scanner cannot decide on (clamd unreachable)', async () => {
    const { cookie, preRegId } = await applicationOn(unscannable);
    await expectRejected(unscannable, () => uploadDocument(unscannable, cookie, preRegId), 'PRG_PAM_DOC_010');
  });
});
