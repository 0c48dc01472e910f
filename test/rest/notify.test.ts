import { describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { eventually, startSmsReceiver, startSmtpSink } from '../support/receivers.js';

const SMS = '/v1/smsnotifier/sms/send';
const EMAIL = '/v1/emailnotifier/email/send';
const OUTBOX = 'query($to: String) { outbox(to: $to) { channel to cc subject body status attempts lastError attachmentNames } }';

async function outbox(t: TestPlatform, to: string) {
  return (await t.graphql(OUTBOX, { to }, bearer(await t.adminToken()))).data.outbox as any[];
}

function emailForm(fields: Record<string, string | string[]>, files: { name: string; content: string | Buffer; type?: string }[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  for (const file of files) form.append('attachments', new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)], { type: file.type ?? 'text/plain' }), file.name);
  return form;
}

async function postForm(t: TestPlatform, form: FormData, headers: Record<string, string>) {
  const response = await fetch(t.baseUrl + EMAIL, { method: 'POST', body: form, headers });
  return { status: response.status, json: await response.json() };
}

describe('notifications into the outbox (no gateway configured)', () => {
  let t: TestPlatform;
  let auth: Record<string, string>;
  useTestPlatform({}, (platform, adminCookie) => {
    t = platform;
    auth = adminCookie;
  });
  const sms = (request: unknown, headers = auth) => t.request('POST', SMS, { body: envelopeOf(request), headers });

  it('keeps an SMS in the outbox, newest first', async () => {
    const { json } = await sms({ number: '9876543210', message: 'first' });
    expect(json.response.status).toBe('success');
    await sms({ number: '9876543210', message: 'second' });
    const messages = await outbox(t, '9876543210');
    expect(messages.map((m) => m.body)).toEqual(['second', 'first']);
    expect(messages[0]).toMatchObject({ channel: 'sms', status: 'OUTBOX', attempts: 0 });
  });

  it('gives KER-NOS-001 and KER-NOS-002 for bad SMS input and changes nothing', async () => {
    await expectRejected(t, () => sms({ message: 'x' }), 'KER-NOS-001');
    await expectRejected(t, () => sms({ number: '9876543210' }), 'KER-NOS-001');
    await expectRejected(t, () => sms({ number: '9876543210', message: '  ' }), 'KER-NOS-001');
    await expectRejected(t, () => sms({ number: '98765abc10', message: 'x' }), 'KER-NOS-002');
    await expectRejected(t, () => sms({ number: '+987654321', message: 'x' }), 'KER-NOS-002');
    await expectRejected(t, () => sms({ number: '98765', message: 'x' }), 'KER-NOS-002');
    await expectRejected(t, () => sms({ number: 9876543210, message: 'x' }), 'KER-NOS-002');
  });

  it('takes multipart e-mail with repeated and comma-separated recipients and attachments', async () => {
    const form = emailForm({ mailTo: ['a@example.org', 'b@example.org,c@example.org'], mailCc: 'cc@example.org', mailSubject: 'Receipt', mailContent: 'Your registration is received.' },
      [{ name: 'receipt.txt', content: 'receipt body' }, { name: 'photo.bin', content: Buffer.from([0, 1, 2, 255]), type: 'application/octet-stream' }]);
    const { json } = await postForm(t, form, auth);
    expect(json.errors).toBeNull();
    expect(json.response.status).toBe('success');
    const [mail] = await outbox(t, 'b@example.org');
    expect(mail).toMatchObject({ channel: 'email', to: 'a@example.org,b@example.org,c@example.org', cc: 'cc@example.org', subject: 'Receipt', status: 'OUTBOX', attachmentNames: ['receipt.txt', 'photo.bin'] });
  });

  it('gives the e-mail codes for bad input and changes nothing', async () => {
    await expectRejected(t, () => postForm(t, emailForm({ mailSubject: 's' }), auth), 'KER-NOE-001');
    await expectRejected(t, () => postForm(t, emailForm({ mailTo: 'a@example.org' }), auth), 'KER-NOE-002');
    await expectRejected(t, () => postForm(t, emailForm({ mailTo: 'not-an-address', mailSubject: 's' }), auth), 'KER-NOE-006');
    await expectRejected(t, () => postForm(t, emailForm({ mailTo: 'a@example.org', mailSubject: 's' }, [{ name: 'big.bin', content: Buffer.alloc(5 * 1024 * 1024 + 1) }]), auth), 'KER-NOE-007');
  });

  it('requires a token with a notifier role, and gives the same codes through GraphQL', async () => {
    await expectRejected(t, () => sms({ number: '9876543210', message: 'x' }, {}), 'KER-ATH-006');
    const admin = bearer(await t.adminToken());
    await t.graphql('mutation { createUser(input: {userId: "notify-officer", password: "officer-pass-1", roles: ["REGISTRATION_OFFICER"], appIds: ["registrationclient"]}) { userId } }', {}, admin);
    const login = await t.graphql('mutation { loginWithPassword(userName: "notify-officer", password: "officer-pass-1", appId: "registrationclient") { token } }');
    await expectRejected(t, () => sms({ number: '9876543210', message: 'x' }, cookieHeader(login.data.loginWithPassword.token)), 'KER-ATH-403');
    expect((await t.graphql('mutation { sendSms(number: "12ab", message: "x") { status } }', {}, admin)).errors[0].extensions.code).toBe('KER-NOS-002');
    expect((await t.graphql('mutation { sendEmail(mailTo: ["a@example.org"], mailSubject: "") { status } }', {}, admin)).errors[0].extensions.code).toBe('KER-NOE-002');
    const sent = await t.graphql('mutation { sendEmail(mailTo: ["g@example.org"], mailSubject: "GraphQL", attachments: [{filename: "a.txt", contentBase64: "aGVsbG8="}]) { status } }', {}, admin);
    expect(sent.data.sendEmail.status).toBe('success');
    expect((await outbox(t, 'g@example.org'))[0].attachmentNames).toEqual(['a.txt']);
  });
});

describe('real delivery', () => {
  it('sends e-mail with an attachment through SMTP', async () => {
    const sink = await startSmtpSink();
    const t = await startTestPlatform({ SMTP_URL: sink.url, MAIL_FROM: 'platform@example.org' });
    try {
      const form = emailForm({ mailTo: 'resident@example.org', mailSubject: 'Your identity card', mailContent: 'Attached.' }, [{ name: 'card.txt', content: 'card contents' }]);
      const { json } = await postForm(t, form, cookieHeader(await t.adminToken()));
      expect(json.response.status).toBe('success');
      await eventually(() => sink.messages.length === 1);
      const raw = sink.messages[0]!;
      expect(raw).toMatch(/Subject: Your identity card/);
      expect(raw).toMatch(/To: resident@example.org/);
      expect(raw).toMatch(/filename=card.txt/);
      expect(raw).toContain(Buffer.from('card contents').toString('base64'));
      expect((await outbox(t, 'resident@example.org'))[0]).toMatchObject({ status: 'SENT', attempts: 1 });
    } finally {
      await t.close();
      await sink.close();
    }
  });

  it('posts SMS to the HTTP gateway', async () => {
    const gateway = await startSmsReceiver();
    const t = await startTestPlatform({ SMS_GATEWAY_URL: gateway.url });
    try {
      await t.request('POST', SMS, { body: envelopeOf({ number: '9123456780', message: 'hello' }), headers: cookieHeader(await t.adminToken()) });
      expect(gateway.requests).toEqual([{ number: '9123456780', message: 'hello' }]);
      expect((await outbox(t, '9123456780'))[0]).toMatchObject({ status: 'SENT', attempts: 1 });
    } finally {
      await t.close();
      await gateway.close();
    }
  });

  it('records a failed delivery and retries it until it goes through', async () => {
    const gateway = await startSmsReceiver((count) => (count === 1 ? 500 : 200));
    const t = await startTestPlatform({ SMS_GATEWAY_URL: gateway.url, PLATFORM_NOTIFY_RETRY_SECONDS: '10', PLATFORM_NOTIFY_SWEEP_MS: '100' });
    try {
      const { json } = await t.request('POST', SMS, { body: envelopeOf({ number: '9123456781', message: 'retry me' }), headers: cookieHeader(await t.adminToken()) });
      expect(json.response.status).toBe('success');
      const [pending] = await outbox(t, '9123456781');
      expect(pending).toMatchObject({ status: 'PENDING', attempts: 1, lastError: expect.stringMatching(/500/) });
      t.clock.advance(11_000);
      await eventually(async () => (await outbox(t, '9123456781'))[0].status === 'SENT');
      expect((await outbox(t, '9123456781'))[0]).toMatchObject({ attempts: 2, lastError: null });
      expect(gateway.requests).toHaveLength(2);
    } finally {
      await t.close();
      await gateway.close();
    }
  });

  it('marks a message FAILED after the configured attempts, never dropping it', async () => {
    const gateway = await startSmsReceiver(() => 503);
    const t = await startTestPlatform({ SMS_GATEWAY_URL: gateway.url, PLATFORM_NOTIFY_RETRY_SECONDS: '10', PLATFORM_NOTIFY_SWEEP_MS: '100', PLATFORM_NOTIFY_MAX_ATTEMPTS: '2' });
    try {
      await t.request('POST', SMS, { body: envelopeOf({ number: '9123456782', message: 'doomed' }), headers: cookieHeader(await t.adminToken()) });
      t.clock.advance(11_000);
      await eventually(async () => (await outbox(t, '9123456782'))[0].status === 'FAILED');
      expect((await outbox(t, '9123456782'))[0]).toMatchObject({ attempts: 2, lastError: expect.stringMatching(/503/) });
      expect(gateway.requests).toHaveLength(2);
    } finally {
      await t.close();
      await gateway.close();
    }
  });
});
