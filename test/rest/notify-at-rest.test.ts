// OTPs never lie in clear at rest: message bodies are sealed with the key store,
// dropped once delivered, and purged from the outbox after the retention time.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../support/receivers.js';
import { cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { waitFor } from '../support/wait.js';

/** Ten digits: a chance match with any other number in a database's files is negligible. */
const OTP_LENGTH = '10';
const otpIn = (body: string) => new RegExp(`\\b(\\d{${OTP_LENGTH}})\\b`).exec(body)?.[1] ?? '';

/** Everything the database holds on disk, as bytes: PGlite's data folder (tables and WAL), or a pg_dump of the server's database. */
async function databaseBytes(t: TestPlatform): Promise<Buffer> {
  const { database } = t.platform;
  if (database.pglite) return Buffer.from(await (await database.pglite.dumpDataDir('none')).arrayBuffer());
  const url = (await database.prisma.$queryRawUnsafe<{ name: string }[]>('SELECT current_database() AS name'))[0]!.name;
  return execFileSync('pg_dump', ['-h', '127.0.0.1', '-U', 'postgres', '--data-only', url], { maxBuffer: 256 * 1024 * 1024 });
}

async function sendLoginOtp(t: TestPlatform, email: string): Promise<void> {
  const sent = await t.request('POST', '/v1/authmanager/authenticate/sendotp', {
    body: envelopeOf({ userId: email, otpChannel: ['email'], useridtype: 'USERID', appId: 'preregistration', context: 'auth-otp' }),
  });
  expect(sent.json.response.status).toBe('success');
}

describe('in outbox mode', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ PLATFORM_OTP_LENGTH: OTP_LENGTH, PLATFORM_NOTIFY_SWEEP_MS: '100', PLATFORM_OUTBOX_RETENTION_HOURS: '24' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The newest message to an address, as an admin reads it (logged in afresh: the test moves the clock by hours). */
  const outboxBody = async (to: string) =>
    (await t.graphql('query($to: String) { outbox(to: $to, limit: 1) { body subject status } }', { to }, cookieHeader(await t.adminToken()))).data.outbox[0];

  it("keeps the OTP readable for the admin, yet nowhere in the database's files in clear", async () => {
    await sendLoginOtp(t, 'at-rest@example.org');
    const message = await outboxBody('at-rest@example.org');
    const otp = otpIn(message.body);
    expect(otp).toHaveLength(10);
    const bytes = await databaseBytes(t);
    expect(bytes.length).toBeGreaterThan(10_000);
    expect(bytes.includes(Buffer.from(otp))).toBe(false);
    expect(bytes.includes(Buffer.from(message.body.slice(0, 40)))).toBe(false);
    // the recipient and subject stay searchable
    expect(bytes.includes(Buffer.from('at-rest@example.org'))).toBe(true);
  });

  it('drops the body after PLATFORM_OUTBOX_RETENTION_HOURS, keeping recipient, subject and state', async () => {
    await sendLoginOtp(t, 'retention@example.org');
    expect(otpIn((await outboxBody('retention@example.org')).body)).toHaveLength(10);
    t.clock.advance(23 * 3_600_000);
    await new Promise((r) => setTimeout(r, 300));
    expect((await outboxBody('retention@example.org')).body).not.toBeNull();
    t.clock.advance(2 * 3_600_000);
    const purged = await waitFor(
      async () => {
        const row = await outboxBody('retention@example.org');
        return row.body === null && row;
      },
      'the body to be purged',
      5000,
    );
    expect(purged).toEqual({ body: null, subject: 'Your one-time password', status: 'OUTBOX' });
  });
});

describe('delivered over SMTP', () => {
  let t: TestPlatform;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await startTestPlatform({ PLATFORM_OTP_LENGTH: OTP_LENGTH, SMTP_URL: sink.url });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('keeps no body once sent: channel, recipient, subject, state and times stay', async () => {
    await sendLoginOtp(t, 'delivered@example.org');
    const otp = otpIn(sink.messages.at(-1) ?? '');
    expect(otp).toHaveLength(10);
    const row = await t.platform.deps.prisma.notification.findFirst({ where: { to: 'delivered@example.org' } });
    expect(row).toMatchObject({ channel: 'email', to: 'delivered@example.org', subject: 'Your one-time password', status: 'SENT', content: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect((await databaseBytes(t)).includes(Buffer.from(otp))).toBe(false);
  });
});
