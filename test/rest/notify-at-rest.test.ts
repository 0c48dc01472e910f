// Neither OTPs nor residents' addresses lie in clear at rest: recipients, bodies
// and attachments are sealed with the key store, dropped once delivered, and
// purged from the outbox after the retention time; the outbox is searched by a
// keyed HMAC of each recipient address, which the retention time purges too.
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idrepoCalls, newRid } from '../support/identities.js';
import { startSmtpSink, type SmtpSink } from '../support/receivers.js';
import { residentEmail, residentOtpLogin, sendResidentOtp } from '../support/residents.js';
import { cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { waitFor } from '../support/wait.js';

/** Ten digits: a chance match with any other number in a database's files is negligible. */
const OTP_LENGTH = '10';
const otpIn = (body: string) => new RegExp(`\\b(\\d{${OTP_LENGTH}})\\b`).exec(body)?.[1] ?? '';
/** A fresh mobile number the sample ID schema accepts (^[6-9][0-9]{9}$). */
const newPhone = () => `9${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;

/** Everything the database holds on disk, as bytes: PGlite's data folder (tables and WAL), or a pg_dump of the server's database. */
async function databaseBytes(t: TestPlatform): Promise<Buffer> {
  const { database } = t.platform;
  if (database.pglite) return Buffer.from(await (await database.pglite.dumpDataDir('none')).arrayBuffer());
  const url = (await database.prisma.$queryRawUnsafe<{ name: string }[]>('SELECT current_database() AS name'))[0]!.name;
  return execFileSync('pg_dump', ['-h', '127.0.0.1', '-U', 'postgres', '--data-only', url], { maxBuffer: 256 * 1024 * 1024 });
}

/** The texts of `values` found anywhere in the database's bytes, in any case: none is expected. */
async function foundAtRest(t: TestPlatform, values: string[]): Promise<string[]> {
  const bytes = await databaseBytes(t);
  expect(bytes.length).toBeGreaterThan(10_000);
  return values.filter((value) => [value, value.toLowerCase(), value.toUpperCase()].some((form) => bytes.includes(Buffer.from(form))));
}

async function sendLoginOtp(t: TestPlatform, email: string): Promise<void> {
  const sent = await t.request('POST', '/v1/authmanager/authenticate/sendotp', {
    body: envelopeOf({ userId: email, otpChannel: ['email'], useridtype: 'USERID', appId: 'preregistration', context: 'auth-otp' }),
  });
  expect(sent.json.response.status).toBe('success');
}

const OUTBOX = 'query($to: String, $limit: Int) { outbox(to: $to, limit: $limit) { id to cc body subject status } }';

describe('in outbox mode', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({
      PLATFORM_OTP_LENGTH: OTP_LENGTH,
      PLATFORM_NOTIFY_SWEEP_MS: '100',
      PLATFORM_OUTBOX_RETENTION_HOURS: '24',
      // the sample ID schema, for a resident's identity
      PLATFORM_SAMPLE_DATA: 'true',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The outbox as an admin reads it (logged in afresh: the test moves the clock by hours). */
  const outbox = async (to: string | null, limit = 1) => (await t.graphql(OUTBOX, { to, limit }, cookieHeader(await t.adminToken()))).data.outbox as any[];
  const newest = async (to: string) => (await outbox(to))[0];

  it("keeps the OTP and the address readable for the admin, yet neither anywhere in the database's files in clear", async () => {
    await sendLoginOtp(t, 'at-rest@example.org');
    const message = await newest('at-rest@example.org');
    expect(message).toMatchObject({ to: 'at-rest@example.org', cc: null, subject: 'Your one-time password', status: 'OUTBOX' });
    const otp = otpIn(message.body);
    expect(otp).toHaveLength(10);
    // found by the whole address in any case; a part of it finds nothing (no address is kept to match a part against)
    expect((await newest('AT-REST@Example.org')).id).toBe(message.id);
    expect(await outbox('at-rest@', 50)).toEqual([]);
    expect(await outbox('example.org', 50)).toEqual([]);
    expect(await foundAtRest(t, [otp, message.body.slice(0, 40), 'at-rest@example.org', 'at-rest'])).toEqual([]);
  });

  it("keeps no resident's e-mail or phone at rest after their OTP sign-ins by e-mail and by SMS, nor those of SMS and e-mail sent through REST and GraphQL", async () => {
    const identity = idrepoCalls(() => t);
    const processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
    const email = residentEmail();
    const phone = newPhone();
    const uin = identity.newUin();
    await identity.ok(identity.create(processor, uin, newRid(), { email, phone }));

    const otps: string[] = [];
    for (const [channel, address] of [
      ['email', email],
      ['phone', phone],
    ] as const) {
      const sent = await sendResidentOtp(t, uin, { otpChannel: [channel] });
      expect(sent.json.errors, JSON.stringify(sent.json.errors)).toBeOneOf([null, []]);
      const message = await newest(address);
      expect(message).toMatchObject({ to: address, status: 'OUTBOX' });
      const otp = otpIn(message.body);
      otps.push(otp);
      const login = await residentOtpLogin(t, uin, otp);
      expect(login.json.errors, JSON.stringify(login.json.errors)).toBeOneOf([null, []]);
    }

    // An SMS through REST, an e-mail with a copy through GraphQL: their recipients are sealed alike.
    const admin = cookieHeader(await t.adminToken());
    const smsTo = newPhone();
    const sms = await t.request('POST', '/v1/smsnotifier/sms/send', { body: envelopeOf({ number: smsTo, message: 'sealed sms text 4f2a' }), headers: admin });
    expect(sms.json.response.status).toBe('success');
    const mailTo = residentEmail();
    const mailCc = residentEmail();
    const mail = await t.graphql(
      'mutation($to: [String!]!, $cc: [String!]) { sendEmail(input: { mailTo: $to, mailCc: $cc, mailSubject: "Card", mailContent: "sealed mail text 9b1c" }) { notificationResult { status } userErrors { field code message } } }',
      { to: [mailTo], cc: [mailCc] },
      admin,
    );
    expect(mail.data.sendEmail.notificationResult.status).toBe('success');
    expect(await newest(smsTo)).toMatchObject({ to: smsTo, body: 'sealed sms text 4f2a' });
    expect(await newest(mailTo)).toMatchObject({ to: mailTo, cc: mailCc, body: 'sealed mail text 9b1c' });

    expect(await foundAtRest(t, [email, phone, uin, smsTo, mailTo, mailCc, ...otps, 'sealed sms text', 'sealed mail text'])).toEqual([]);
  });

  it('drops the address, the body and the look-up keys after PLATFORM_OUTBOX_RETENTION_HOURS, keeping subject, state and times', async () => {
    await sendLoginOtp(t, 'retention@example.org');
    const message = await newest('retention@example.org');
    expect(otpIn(message.body)).toHaveLength(10);
    t.clock.advance(23 * 3_600_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await newest('retention@example.org')).toMatchObject({ id: message.id, to: 'retention@example.org', body: expect.any(String) });
    t.clock.advance(2 * 3_600_000);
    await waitFor(async () => (await outbox('retention@example.org')).length === 0, 'the message to be purged', 5000);
    // The row stays, naming no one.
    const kept = (await outbox(null, 500)).find((row) => row.id === message.id);
    expect(kept).toEqual({ id: message.id, to: null, cc: null, body: null, subject: 'Your one-time password', status: 'OUTBOX' });
    const row = await t.platform.deps.prisma.notification.findUniqueOrThrow({ where: { id: message.id } });
    expect(row).toMatchObject({ content: null, recipientKeys: [] });
  });
});

describe('delivered over SMTP', () => {
  let t: TestPlatform;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink({ refuse: (address, attempt) => address === 'refused@example.org' && attempt === 1 });
    t = await startTestPlatform({ PLATFORM_OTP_LENGTH: OTP_LENGTH, SMTP_URL: sink.url, PLATFORM_NOTIFY_SWEEP_MS: '100' });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const outbox = async (to: string) =>
    (await t.graphql('query($to: String) { outbox(to: $to) { id to body subject status sentAt lastError } }', { to }, cookieHeader(await t.adminToken()))).data
      .outbox as any[];

  it('keeps neither body nor address once sent: channel, subject, state and times stay, found by the address until the retention time', async () => {
    await sendLoginOtp(t, 'delivered@example.org');
    const otp = otpIn(sink.messages.at(-1) ?? '');
    expect(otp).toHaveLength(10);
    const [sent] = await outbox('delivered@example.org');
    expect(sent).toMatchObject({ to: null, body: null, subject: 'Your one-time password', status: 'SENT', lastError: null });
    expect(sent.sentAt).toEqual(expect.any(String));
    const row = await t.platform.deps.prisma.notification.findUniqueOrThrow({ where: { id: sent.id } });
    expect(row).toMatchObject({ channel: 'email', subject: 'Your one-time password', status: 'SENT', content: null });
    expect(row.recipientKeys).toHaveLength(1);
    expect(await foundAtRest(t, [otp, 'delivered@example.org'])).toEqual([]);

    t.clock.advance(25 * 3_600_000);
    await waitFor(async () => (await outbox('delivered@example.org')).length === 0, 'the look-up keys to be purged', 5000);
    expect(await t.platform.deps.prisma.notification.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({ status: 'SENT', recipientKeys: [] });
  });

  it("keeps no address from the server's refusal in lastError, and delivers on the retry", async () => {
    await sendLoginOtp(t, 'refused@example.org');
    expect(sink.refused).toContain('refused@example.org');
    const [pending] = await outbox('refused@example.org');
    expect(pending).toMatchObject({ status: 'PENDING', to: 'refused@example.org', lastError: expect.any(String) });
    expect(pending.lastError).not.toMatch(/refused@|example\.org/i);
    expect(await foundAtRest(t, ['refused@example.org'])).toEqual([]);

    t.clock.advance(60_000);
    await waitFor(async () => (await outbox('refused@example.org'))[0]?.status === 'SENT', 'the retry', 10_000);
    expect(sink.envelopes.at(-1)!.to).toEqual(['refused@example.org']);
  });
});
