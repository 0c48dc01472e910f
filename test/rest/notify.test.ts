import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected, TIMESTAMP } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startSmsReceiver, startSmtpSink } from '../support/receivers.js';
import { eventually } from '../support/wait.js';
import { refusalOf, refusalCode } from '../support/refusals.js';

const SMS = '/v1/smsnotifier/sms/send';
const EMAIL = '/v1/emailnotifier/email/send';
const OUTBOX = `query($to: String, $channel: NotificationChannel, $limit: Int) {
  outbox(to: $to, channel: $channel, limit: $limit) { id channel to cc subject body status attempts lastError createdAt sentAt attachmentNames }
}`;
const SEND_SMS =
  'mutation($number: String!, $message: String!) { sendSms(input: { number: $number, message: $message }) { notificationResult { status message } userErrors { field code message } } }';
const SEND_EMAIL = `mutation($mailTo: [String!]!, $mailCc: [String!], $mailSubject: String!, $mailContent: String, $attachments: [EmailAttachment!]) {
  sendEmail(input: { mailTo: $mailTo, mailCc: $mailCc, mailSubject: $mailSubject, mailContent: $mailContent, attachments: $attachments }) { notificationResult { status message } userErrors { field code message } }
}`;
const MB = 1024 * 1024;

interface OutboxRow {
  id: string;
  channel: string;
  to: string | null;
  cc: string | null;
  subject: string | null;
  body: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  attachmentNames: string[];
}

/** The admin's view of the outbox (GraphQL, bearer token), newest first. */
async function outbox(t: TestPlatform, token: string, filter: { to?: string; channel?: string; limit?: number }): Promise<OutboxRow[]> {
  const result = await t.graphql(OUTBOX, filter, bearer(token));
  if (result.errors) throw new Error(`outbox query failed: ${JSON.stringify(result.errors)}`);
  return result.data.outbox as OutboxRow[];
}

async function latest(t: TestPlatform, token: string, to: string): Promise<OutboxRow> {
  const [row] = await outbox(t, token, { to });
  if (!row) throw new Error(`nothing in the outbox for ${to}`);
  return row;
}

const smsRequest = (t: TestPlatform, request: unknown, headers: Record<string, string>) => t.request('POST', SMS, { body: envelopeOf(request), headers });

interface FormFile {
  name: string;
  content: string | Uint8Array;
  type?: string;
  field?: string;
}

function emailForm(fields: Record<string, string | string[]>, files: FormFile[] = []): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  for (const file of files) {
    const bytes = typeof file.content === 'string' ? new TextEncoder().encode(file.content) : file.content;
    form.append(file.field ?? 'attachments', new Blob([new Uint8Array(bytes)], { type: file.type ?? 'text/plain' }), file.name);
  }
  return form;
}

async function postEmail(t: TestPlatform, form: FormData, headers: Record<string, string>): Promise<{ status: number; json: any }> {
  const response = await fetch(t.baseUrl + EMAIL, { method: 'POST', body: form, headers });
  return { status: response.status, json: await response.json() };
}

/** A GraphQL call refused with `code` in errors[0].extensions.code, changing no row anywhere. */
async function expectGraphqlRejected(t: TestPlatform, call: () => Promise<any>, code: string): Promise<void> {
  const before = await t.snapshot();
  const result = await call();
  expect(result.data?.sendSms?.notificationResult ?? result.data?.sendEmail?.notificationResult ?? result.data?.outbox ?? null).toBeNull();
  expect(refusalCode(result)).toBe(code);
  expect(await t.snapshot()).toEqual(before);
}

describe('notification into the outbox (no SMTP server or SMS gateway configured)', () => {
  let t: TestPlatform;
  let token: string;
  let admin: Record<string, string>;
  let resident: string;

  beforeAll(async () => {
    t = await startTestPlatform();
    token = await t.adminToken();
    admin = cookieHeader(token);
    const created = await t.graphql(
      'mutation { createUser(input: {userId: "notify-resident", password: "Resident-pass-1", roles: [INDIVIDUAL], appIds: ["resident"]}) { user { userId } userErrors { field code message } } }',
      {},
      bearer(token),
    );
    expect(created.errors).toBeUndefined();
    const login = await t.graphql(
      'mutation { loginWithPassword(input: { userName: "notify-resident", password: "Resident-pass-1", appId: "resident" }) { passwordLogin { token } userErrors { field code message } } }',
    );
    resident = login.data.loginWithPassword.passwordLogin.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST /v1/smsnotifier/sms/send', () => {
    it('answers success and records the SMS in the outbox, newest first, with status OUTBOX', async () => {
      const before = await t.snapshot();
      const first = await smsRequest(t, { number: '9876543210', message: 'first message' }, admin);
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({ id: 'platform.kernel.sms.send', version: '1.0', errors: null });
      expect(first.json.responsetime).toMatch(TIMESTAMP);
      expect(first.json.response).toEqual({ status: 'success', message: expect.any(String) });
      expect(await t.snapshot()).toEqual({ ...before, notification: before.notification! + 1 });

      const second = await smsRequest(t, { number: '9876543210', message: 'second message' }, admin);
      expect(second.json.response.status).toBe('success');

      const rows = await outbox(t, token, { to: '9876543210' });
      expect(rows.map((r) => r.body)).toEqual(['second message', 'first message']);
      expect(Date.parse(rows[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(rows[1]!.createdAt));
      expect(rows[0]).toMatchObject({
        channel: 'SMS',
        to: '9876543210',
        cc: null,
        subject: null,
        status: 'OUTBOX',
        attempts: 0,
        lastError: null,
        sentAt: null,
        attachmentNames: [],
      });
      // `to` is a whole recipient (no address is kept at rest to match a part against)
      expect(await outbox(t, token, { to: '98765432' })).toEqual([]);
      expect((await outbox(t, token, { to: ' 9876543210 ' })).map((r) => r.id)).toEqual(rows.map((r) => r.id));
      expect(await outbox(t, token, { to: '9876543210', limit: 1 })).toHaveLength(1);
    });

    it('refuses a caller without a token (KER-ATH-006) and a user without a notifier role (KER-ATH-403), recording nothing', async () => {
      await expectRejected(t, () => smsRequest(t, { number: '9876543211', message: 'no token' }, {}), 'KER-ATH-006');
      await expectRejected(t, () => smsRequest(t, { number: '9876543211', message: 'individual' }, cookieHeader(resident)), 'KER-ATH-403');
      expect(await outbox(t, token, { to: '9876543211' })).toEqual([]);
    });

    it('gives KER-NOS-001 for a missing number, a missing message or an empty one, changing nothing', async () => {
      await expectRejected(t, () => smsRequest(t, { message: 'no number' }, admin), 'KER-NOS-001');
      await expectRejected(t, () => smsRequest(t, { number: '', message: 'empty number' }, admin), 'KER-NOS-001');
      await expectRejected(t, () => smsRequest(t, { number: '9876543210' }, admin), 'KER-NOS-001');
      await expectRejected(t, () => smsRequest(t, { number: '9876543210', message: '' }, admin), 'KER-NOS-001');
      await expectRejected(t, () => smsRequest(t, { number: '9876543210', message: '   ' }, admin), 'KER-NOS-001');
      await expectRejected(t, () => smsRequest(t, { number: '9876543210', message: null }, admin), 'KER-NOS-001');
      await expectRejected(t, () => smsRequest(t, {}, admin), 'KER-NOS-001');
    });

    // Spec (Document 1): KER-NOS-001 "Number and message can't be empty or null"; a JSON null counts as missing.
    it('gives KER-NOS-001 for a null number', async () => {
      await expectRejected(t, () => smsRequest(t, { number: null, message: 'null number' }, admin), 'KER-NOS-001');
    });

    it('gives KER-NOS-002 for letters, special characters or a length other than PLATFORM_SMS_NUMBER_LENGTH (10), changing nothing', async () => {
      await expectRejected(t, () => smsRequest(t, { number: '98765abc10', message: 'letters' }, admin), 'KER-NOS-002');
      await expectRejected(t, () => smsRequest(t, { number: 'abcdefghij', message: 'letters' }, admin), 'KER-NOS-002');
      await expectRejected(t, () => smsRequest(t, { number: '+987654321', message: 'plus' }, admin), 'KER-NOS-002');
      await expectRejected(t, () => smsRequest(t, { number: '98765-4321', message: 'dash' }, admin), 'KER-NOS-002');
      await expectRejected(t, () => smsRequest(t, { number: '98765 4321', message: 'space' }, admin), 'KER-NOS-002');
      await expectRejected(t, () => smsRequest(t, { number: '987654321', message: 'nine digits' }, admin), 'KER-NOS-002');
      await expectRejected(t, () => smsRequest(t, { number: '98765432101', message: 'eleven digits' }, admin), 'KER-NOS-002');
      await expectRejected(t, () => smsRequest(t, { number: '٩٨٧٦٥٤٣٢١٠', message: 'Arabic-Indic digits' }, admin), 'KER-NOS-002');
    });
  });

  describe('POST /v1/emailnotifier/email/send (multipart form data)', () => {
    it('takes repeated and comma-separated mailTo, mailCc, subject, content and two attachments into the outbox', async () => {
      const before = await t.snapshot();
      const form = emailForm(
        {
          mailTo: ['a@example.org', 'b@example.org, c@example.org'],
          mailCc: 'cc@example.org',
          mailSubject: 'Registration receipt',
          mailContent: 'Your registration is received.',
        },
        [
          { name: 'receipt.txt', content: 'receipt body' },
          { name: 'photo.bin', content: new Uint8Array([0, 1, 2, 255]), type: 'application/octet-stream' },
        ],
      );
      const { status, json } = await postEmail(t, form, admin);
      expect(status).toBe(200);
      expect(json).toMatchObject({ id: 'platform.kernel.email.send', errors: null, response: { status: 'success', message: expect.any(String) } });
      expect(await t.snapshot()).toEqual({ ...before, notification: before.notification! + 1 });

      const mail = await latest(t, token, 'b@example.org');
      expect(mail).toMatchObject({
        channel: 'EMAIL',
        to: 'a@example.org,b@example.org,c@example.org',
        cc: 'cc@example.org',
        subject: 'Registration receipt',
        body: 'Your registration is received.',
        status: 'OUTBOX',
        attempts: 0,
        lastError: null,
        sentAt: null,
        attachmentNames: ['receipt.txt', 'photo.bin'],
      });
      expect((await outbox(t, token, { to: 'a@example.org', channel: 'EMAIL' })).map((r) => r.id)).toContain(mail.id);
      expect(await outbox(t, token, { to: 'a@example.org', channel: 'SMS' })).toEqual([]);
      // any case; several comma-separated: messages to all of them; a copy is not a recipient to search by
      expect((await outbox(t, token, { to: 'C@Example.ORG' })).map((r) => r.id)).toContain(mail.id);
      expect((await outbox(t, token, { to: 'c@example.org, a@example.org' })).map((r) => r.id)).toContain(mail.id);
      expect(await outbox(t, token, { to: 'c@example.org,nobody@example.org' })).toEqual([]);
      expect(await outbox(t, token, { to: 'cc@example.org' })).toEqual([]);
      expect(await outbox(t, token, { to: 'example.org' })).toEqual([]);
    });

    it('accepts an attachment just under 5 MB', async () => {
      const { json } = await postEmail(
        t,
        emailForm({ mailTo: 'almost-five-mb@example.org', mailSubject: 'big' }, [{ name: 'almost.bin', content: new Uint8Array(5 * MB - 1) }]),
        admin,
      );
      expect(json.errors).toBeNull();
      expect((await latest(t, token, 'almost-five-mb@example.org')).attachmentNames).toEqual(['almost.bin']);
    });

    // The limit is 5242880 bytes inclusive: "a file exceeds 5242880 bytes" is only said of a larger one.
    it('accepts an attachment of exactly 5 MB', async () => {
      const { json } = await postEmail(
        t,
        emailForm({ mailTo: 'five-mb@example.org', mailSubject: 'big' }, [{ name: 'five.bin', content: new Uint8Array(5 * MB) }]),
        admin,
      );
      expect(json.errors).toBeNull();
    });

    it('gives KER-NOE-001 without mailTo, KER-NOE-002 without a subject, KER-NOE-006 for a bad address, changing nothing', async () => {
      const send = (fields: Record<string, string | string[]>) => () => postEmail(t, emailForm(fields), admin);
      await expectRejected(t, send({ mailSubject: 'no recipient', mailContent: 'x' }), 'KER-NOE-001');
      await expectRejected(t, send({ mailTo: ' , ', mailSubject: 'blank recipients' }), 'KER-NOE-001');
      await expectRejected(t, send({ mailTo: 'a@example.org', mailContent: 'no subject' }), 'KER-NOE-002');
      await expectRejected(t, send({ mailTo: 'a@example.org', mailSubject: '   ' }), 'KER-NOE-002');
      await expectRejected(t, send({ mailTo: 'not-an-address', mailSubject: 's' }), 'KER-NOE-006', /not-an-address/);
      await expectRejected(t, send({ mailTo: 'a@example.org,bad@', mailSubject: 's' }), 'KER-NOE-006', /bad@/);
      await expectRejected(t, send({ mailTo: 'a@example.org', mailCc: 'cc-without-domain', mailSubject: 's' }), 'KER-NOE-006', /cc-without-domain/);
    });

    it('gives KER-NOE-007 for an attachment over 5 MB or too many files, changing nothing', async () => {
      const fields = { mailTo: 'a@example.org', mailSubject: 'attachments' };
      await expectRejected(
        t,
        () =>
          postEmail(
            t,
            emailForm(fields, [
              { name: 'small.txt', content: 'ok' },
              { name: 'big.bin', content: new Uint8Array(5 * MB + 1) },
            ]),
            admin,
          ),
        'KER-NOE-007',
      );
      const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, content: 'x' }));
      await expectRejected(t, () => postEmail(t, emailForm(fields, eleven), admin), 'KER-NOE-007');
    });

    it('refuses a caller without a token (KER-ATH-006) and a user without a notifier role (KER-ATH-403)', async () => {
      const form = () => emailForm({ mailTo: 'denied@example.org', mailSubject: 'denied' }, [{ name: 'a.txt', content: 'a' }]);
      await expectRejected(t, () => postEmail(t, form(), {}), 'KER-ATH-006');
      await expectRejected(t, () => postEmail(t, form(), cookieHeader(resident)), 'KER-ATH-403');
      expect(await outbox(t, token, { to: 'denied@example.org' })).toEqual([]);
    });
  });

  describe('the same through GraphQL', () => {
    it('sendSms and sendEmail record messages like REST', async () => {
      const sms = await t.graphql(SEND_SMS, { number: '9000000001', message: 'from GraphQL' }, bearer(token));
      expect(sms).toEqual({ data: { sendSms: { notificationResult: { status: 'success', message: expect.any(String) }, userErrors: [] } } });
      expect(await latest(t, token, '9000000001')).toMatchObject({ channel: 'SMS', body: 'from GraphQL', status: 'OUTBOX' });

      const mail = await t.graphql(
        SEND_EMAIL,
        {
          mailTo: ['g@example.org'],
          mailCc: ['gcc@example.org'],
          mailSubject: 'GraphQL mail',
          mailContent: 'body',
          attachments: [
            { filename: 'a.txt', contentType: 'text/plain', contentBase64: Buffer.from('hello').toString('base64') },
            { filename: 'b.bin', contentBase64: 'AAEC/w==' },
          ],
        },
        bearer(token),
      );
      expect(mail.data.sendEmail.notificationResult.status).toBe('success');
      expect(await latest(t, token, 'g@example.org')).toMatchObject({
        channel: 'EMAIL',
        cc: 'gcc@example.org',
        subject: 'GraphQL mail',
        status: 'OUTBOX',
        attachmentNames: ['a.txt', 'b.bin'],
      });
    });

    it('gives the same error codes in errors[0].extensions.code, changing nothing', async () => {
      const gql =
        (query: string, variables: Record<string, unknown>, headers = bearer(token)) =>
        () =>
          t.graphql(query, variables, headers);
      await expectGraphqlRejected(t, gql(SEND_SMS, { number: '', message: 'x' }), 'KER-NOS-001');
      await expectGraphqlRejected(t, gql(SEND_SMS, { number: '9876543210', message: '' }), 'KER-NOS-001');
      await expectGraphqlRejected(t, gql(SEND_SMS, { number: '98765abc10', message: 'x' }), 'KER-NOS-002');
      await expectGraphqlRejected(t, gql(SEND_SMS, { number: '+987654321', message: 'x' }), 'KER-NOS-002');
      await expectGraphqlRejected(t, gql(SEND_SMS, { number: '98765', message: 'x' }), 'KER-NOS-002');
      await expectGraphqlRejected(t, gql(SEND_EMAIL, { mailTo: [], mailSubject: 's' }), 'KER-NOE-001');
      await expectGraphqlRejected(t, gql(SEND_EMAIL, { mailTo: ['  '], mailSubject: 's' }), 'KER-NOE-001');
      await expectGraphqlRejected(t, gql(SEND_EMAIL, { mailTo: ['a@example.org'], mailSubject: '' }), 'KER-NOE-002');
      await expectGraphqlRejected(t, gql(SEND_EMAIL, { mailTo: ['a@example'], mailSubject: 's' }), 'KER-NOE-006');
      await expectGraphqlRejected(t, gql(SEND_EMAIL, { mailTo: ['a@example.org'], mailCc: ['Bob <b@example.org>'], mailSubject: 's' }), 'KER-NOE-006');
      await expectGraphqlRejected(
        t,
        gql(SEND_EMAIL, { mailTo: ['a@example.org'], mailSubject: 's', attachments: [{ filename: 'x.txt', contentBase64: 'not base64!' }] }),
        'KER-NOE-007',
      );
      await expectGraphqlRejected(
        t,
        gql(SEND_EMAIL, { mailTo: ['a@example.org'], mailSubject: 's', attachments: [{ filename: '../etc/passwd', contentBase64: 'AA==' }] }),
        'KER-NOE-007',
      );
      await expectGraphqlRejected(
        t,
        gql(SEND_EMAIL, { mailTo: ['a@example.org'], mailSubject: 's', attachments: [{ filename: '', contentBase64: 'AA==' }] }),
        'KER-NOE-007',
      );
    });

    it('refuses without a token (KER-ATH-006) and without a notifier role (KER-ATH-403); the outbox is for admins only', async () => {
      const gql = (query: string, variables: Record<string, unknown>, headers: Record<string, string>) => () => t.graphql(query, variables, headers);
      await expectGraphqlRejected(t, gql(SEND_SMS, { number: '9876543210', message: 'x' }, {}), 'KER-ATH-006');
      await expectGraphqlRejected(t, gql(SEND_SMS, { number: '9876543210', message: 'x' }, bearer(resident)), 'KER-ATH-403');
      await expectGraphqlRejected(t, gql(SEND_EMAIL, { mailTo: ['a@example.org'], mailSubject: 's' }, bearer(resident)), 'KER-ATH-403');
      await expectGraphqlRejected(t, gql(OUTBOX, {}, bearer(resident)), 'KER-ATH-403');
      await expectGraphqlRejected(t, gql(OUTBOX, {}, {}), 'KER-ATH-006');
    });
  });
});

describe('delivery through a real SMTP server', () => {
  it('delivers an e-mail with attachments: recipients, subject, file names and base64 contents reach the server; status SENT', async () => {
    const sink = await startSmtpSink();
    let t: TestPlatform | undefined;
    try {
      t = await startTestPlatform({ SMTP_URL: sink.url, MAIL_FROM: 'platform@example.org' });
      const token = await t.adminToken();
      const form = emailForm(
        {
          mailTo: ['resident@example.org', 'second@example.org'],
          mailCc: 'officer@example.org',
          mailSubject: 'Your identity card',
          mailContent: 'Your card is attached.',
        },
        [
          { name: 'card.txt', content: 'card contents' },
          { name: 'photo.bin', content: new Uint8Array([0, 1, 2, 255]), type: 'application/octet-stream' },
        ],
      );
      const { json } = await postEmail(t, form, cookieHeader(token));
      expect(json.errors).toBeNull();
      expect(json.response.status).toBe('success');

      await eventually(() => sink.messages.length === 1, 10_000, 'the message at the SMTP sink');
      expect(sink.envelopes[0]!.from).toBe('platform@example.org');
      expect([...sink.envelopes[0]!.to].sort()).toEqual(['officer@example.org', 'resident@example.org', 'second@example.org']);
      const raw = sink.messages[0]!;
      expect(raw).toMatch(/^Subject: Your identity card\r?$/m);
      expect(raw).toMatch(/^From: platform@example\.org\r?$/m);
      expect(raw).toMatch(/^To: resident@example\.org, second@example\.org\r?$/m);
      expect(raw).toMatch(/^Cc: officer@example\.org\r?$/m);
      expect(raw).toContain('Your card is attached.');
      expect(raw).toMatch(/filename="?card\.txt"?/);
      expect(raw).toMatch(/filename="?photo\.bin"?/);
      expect(raw).toContain(Buffer.from('card contents').toString('base64'));
      expect(raw).toContain(Buffer.from([0, 1, 2, 255]).toString('base64'));

      const row = await latest(t, token, 'resident@example.org');
      expect(row).toMatchObject({ status: 'SENT', attempts: 1, lastError: null, attachmentNames: ['card.txt', 'photo.bin'] });
      expect(row.sentAt).toMatch(TIMESTAMP);
    } finally {
      await t?.close();
      await sink.close();
    }
  });

  it('does not let a line break in the subject add a header or a recipient: refused (KER-NOE-002) and nothing sent', async () => {
    const sink = await startSmtpSink();
    let t: TestPlatform | undefined;
    try {
      t = await startTestPlatform({ SMTP_URL: sink.url });
      const token = await t.adminToken();
      const sent = await t.graphql(
        SEND_EMAIL,
        { mailTo: ['victim@example.org'], mailSubject: 'Hello\r\nBcc: evil@example.org', mailContent: 'x' },
        bearer(token),
      );
      expect(refusalOf(sent)!.code).toBe('KER-NOE-002');
      expect(refusalOf(sent)!.message).toMatch(/control characters/);
      // a clean message afterwards is the only one the server sees
      const clean = await t.graphql(SEND_EMAIL, { mailTo: ['victim@example.org'], mailSubject: 'Hello', mailContent: 'x' }, bearer(token));
      expect(clean.data.sendEmail.notificationResult.status).toBe('success');
      await eventually(() => sink.messages.length === 1, 10_000, 'the message at the SMTP sink');
      expect(sink.envelopes[0]!.to).toEqual(['victim@example.org']);
      expect(sink.messages.join('\n')).not.toMatch(/evil@example\.org/);
    } finally {
      await t?.close();
      await sink.close();
    }
  });

  it('keeps an e-mail the server refused PENDING with the error, and delivers it on the retry', async () => {
    const sink = await startSmtpSink({ refuse: (address, attempt) => address === 'flaky@example.org' && attempt === 1 });
    let t: TestPlatform | undefined;
    try {
      t = await startTestPlatform({ SMTP_URL: sink.url, PLATFORM_NOTIFY_RETRY_SECONDS: '10', PLATFORM_NOTIFY_SWEEP_MS: '100' });
      const token = await t.adminToken();
      const { json } = await postEmail(
        t,
        emailForm({ mailTo: 'flaky@example.org', mailSubject: 'Second try' }, [{ name: 'note.txt', content: 'note' }]),
        cookieHeader(token),
      );
      expect(json.response.status).toBe('success');
      expect(sink.refused).toEqual(['flaky@example.org']);
      expect(sink.messages).toHaveLength(0);
      const pending = await latest(t, token, 'flaky@example.org');
      expect(pending).toMatchObject({ status: 'PENDING', attempts: 1, sentAt: null, attachmentNames: ['note.txt'] });
      expect(pending.lastError).toEqual(expect.any(String));

      t.clock.advance(11_000);
      await eventually(async () => (await latest(t!, token, 'flaky@example.org')).status === 'SENT', 10_000, 'status SENT');
      expect(await latest(t, token, 'flaky@example.org')).toMatchObject({ attempts: 2, lastError: null });
      expect(sink.messages).toHaveLength(1);
      expect(sink.messages[0]).toMatch(/^Subject: Second try\r?$/m);
      expect(sink.messages[0]).toContain(Buffer.from('note').toString('base64'));
    } finally {
      await t?.close();
      await sink.close();
    }
  });
});

describe('delivery through an HTTP SMS gateway', () => {
  it('POSTs the SMS as JSON {number, message} and marks it SENT; the number length follows PLATFORM_SMS_NUMBER_LENGTH', async () => {
    const gateway = await startSmsReceiver();
    let t: TestPlatform | undefined;
    try {
      t = await startTestPlatform({ SMS_GATEWAY_URL: gateway.url, PLATFORM_SMS_NUMBER_LENGTH: '12' });
      const token = await t.adminToken();
      const { json } = await smsRequest(t, { number: '919123456780', message: 'hello from the platform' }, cookieHeader(token));
      expect(json.errors).toBeNull();
      expect(json.response.status).toBe('success');
      expect(gateway.received).toEqual([
        { method: 'POST', contentType: expect.stringMatching(/^application\/json/), body: { number: '919123456780', message: 'hello from the platform' } },
      ]);
      const row = await latest(t, token, '919123456780');
      expect(row).toMatchObject({ channel: 'SMS', status: 'SENT', attempts: 1, lastError: null });
      expect(row.sentAt).toMatch(TIMESTAMP);

      await expectRejected(t, () => smsRequest(t!, { number: '9123456780', message: 'ten digits' }, cookieHeader(token)), 'KER-NOS-002', /12/);
      expect(gateway.requests).toHaveLength(1);
    } finally {
      await t?.close();
      await gateway.close();
    }
  });

  it('records a failed delivery as PENDING and retries it after the backoff until it goes through', async () => {
    const gateway = await startSmsReceiver((count) => (count === 1 ? 500 : 200));
    let t: TestPlatform | undefined;
    try {
      t = await startTestPlatform({ SMS_GATEWAY_URL: gateway.url, PLATFORM_NOTIFY_RETRY_SECONDS: '10', PLATFORM_NOTIFY_SWEEP_MS: '100' });
      const token = await t.adminToken();
      const { json } = await smsRequest(t, { number: '9123456781', message: 'retry me' }, cookieHeader(token));
      expect(json.response.status).toBe('success');
      expect(gateway.requests).toHaveLength(1);
      const pending = await latest(t, token, '9123456781');
      expect(pending).toMatchObject({ status: 'PENDING', attempts: 1, sentAt: null, lastError: expect.stringMatching(/500/) });

      t.clock.advance(11_000);
      await eventually(async () => (await latest(t!, token, '9123456781')).status === 'SENT', 10_000, 'status SENT');
      const sent = await latest(t, token, '9123456781');
      expect(sent).toMatchObject({ id: pending.id, attempts: 2, lastError: null });
      expect(sent.sentAt).toMatch(TIMESTAMP);
      expect(gateway.requests).toEqual([
        { number: '9123456781', message: 'retry me' },
        { number: '9123456781', message: 'retry me' },
      ]);
    } finally {
      await t?.close();
      await gateway.close();
    }
  });

  it('doubles the backoff between attempts', async () => {
    const gateway = await startSmsReceiver(() => 503);
    let t: TestPlatform | undefined;
    try {
      t = await startTestPlatform({
        SMS_GATEWAY_URL: gateway.url,
        PLATFORM_NOTIFY_RETRY_SECONDS: '10',
        PLATFORM_NOTIFY_SWEEP_MS: '100',
        PLATFORM_NOTIFY_MAX_ATTEMPTS: '3',
      });
      const token = await t.adminToken();
      const headers = cookieHeader(token);
      const attemptsOf = async (number: string) => (await latest(t!, token, number)).attempts;
      const sentTo = (number: string) => gateway.requests.filter((r) => (r as { number: string }).number === number).length;

      await smsRequest(t, { number: '9000000010', message: 'A' }, headers); // T0: attempt 1, next at T0+10 s
      t.clock.advance(11_000); // T0+11: attempt 2, next at T0+11+20 s
      await eventually(async () => (await attemptsOf('9000000010')) === 2, 10_000, 'the second attempt of A');

      await smsRequest(t, { number: '9000000011', message: 'B' }, headers); // T0+11: attempt 1 of B, next at T0+21
      t.clock.advance(11_000); // T0+22: B is due, A (T0+31) is not
      await eventually(async () => (await attemptsOf('9000000011')) === 2, 10_000, 'the second attempt of B');
      expect(await latest(t, token, '9000000010')).toMatchObject({ status: 'PENDING', attempts: 2 });
      expect(sentTo('9000000010')).toBe(2);

      t.clock.advance(10_000); // T0+32: A is due
      await eventually(async () => (await latest(t!, token, '9000000010')).status === 'FAILED', 10_000, 'A FAILED');
      expect(await latest(t, token, '9000000010')).toMatchObject({ attempts: 3, body: 'A', lastError: expect.stringMatching(/503/) });
      expect(sentTo('9000000010')).toBe(3);
    } finally {
      await t?.close();
      await gateway.close();
    }
  });

  it('marks a message FAILED after PLATFORM_NOTIFY_MAX_ATTEMPTS, keeps it in the outbox and stops retrying it', async () => {
    const gateway = await startSmsReceiver(() => 503);
    let t: TestPlatform | undefined;
    try {
      t = await startTestPlatform({
        SMS_GATEWAY_URL: gateway.url,
        PLATFORM_NOTIFY_RETRY_SECONDS: '10',
        PLATFORM_NOTIFY_SWEEP_MS: '100',
        PLATFORM_NOTIFY_MAX_ATTEMPTS: '2',
      });
      const token = await t.adminToken();
      const headers = cookieHeader(token);
      const sentTo = (number: string) => gateway.requests.filter((r) => (r as { number: string }).number === number).length;

      const { json } = await smsRequest(t, { number: '9123456782', message: 'doomed' }, headers);
      expect(json.response.status).toBe('success');
      expect(await latest(t, token, '9123456782')).toMatchObject({ status: 'PENDING', attempts: 1, lastError: expect.stringMatching(/503/) });

      t.clock.advance(11_000);
      await eventually(async () => (await latest(t!, token, '9123456782')).status === 'FAILED', 10_000, 'status FAILED');
      expect(await latest(t, token, '9123456782')).toMatchObject({ attempts: 2, body: 'doomed', sentAt: null, lastError: expect.stringMatching(/503/) });
      expect(sentTo('9123456782')).toBe(2);

      // a later message going through its own retry proves sweeps ran after the failure: the FAILED one is left alone
      await smsRequest(t, { number: '9123456783', message: 'witness' }, headers);
      t.clock.advance(11_000);
      await eventually(async () => (await latest(t!, token, '9123456783')).attempts === 2, 10_000, 'the witness retried');
      expect(await latest(t, token, '9123456782')).toMatchObject({ status: 'FAILED', attempts: 2 });
      expect(sentTo('9123456782')).toBe(2);
    } finally {
      await t?.close();
      await gateway.close();
    }
  });
});
