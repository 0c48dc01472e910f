import { z } from 'zod';
import { identifier, text } from '../../lib/input.js';
import * as ops from '../../generated/graphql/notify.operations.js';
import { operation } from '../operations.js';
import { defineRoute, type RestRoute } from '../route.js';

const result = z.object({ status: z.string(), message: z.string() });

/** A form field sent once, several times, or comma-separated. */
const addresses = z.union([identifier(4096), z.array(identifier(4096)).max(100)]).transform((value) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean),
);

const emailForm = z.object({
  mailTo: addresses,
  mailCc: addresses.optional(),
  mailSubject: identifier(998),
  mailContent: text(1024 * 1024).optional(),
});

const emailCode = (field: string) =>
  field === 'mailTo' ? 'KER-NOE-001' : field === 'mailSubject' ? 'KER-NOE-002' : field === 'attachments' ? 'KER-NOE-007' : 'KER-NOE-006';

export const notifyRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: '/v1/smsnotifier/sms/send',
    summary: 'Send an SMS (to the outbox when no SMS gateway is configured)',
    id: 'platform.kernel.sms.send',
    input: { from: 'envelope', schema: z.object({ number: identifier(64), message: text(4096) }) },
    operation: operation(ops.SendSmsDocument),
    variables: (input) => input,
    response: result,
    result: (data) => data.sendSms,
    codeFor: (field, missing) => (missing || field !== 'number' ? 'KER-NOS-001' : 'KER-NOS-002'),
    internalErrorCode: 'KER-NOS-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/emailnotifier/email/send',
    summary: 'Send an e-mail from multipart form data, with attachments (to the outbox when no SMTP server is configured)',
    id: 'platform.kernel.email.send',
    input: { from: 'form', schema: emailForm, fileField: 'attachments', maxFileBytes: 5 * 1024 * 1024, maxFiles: 10 },
    operation: operation(ops.SendEmailDocument),
    variables: (fields, _req, files) => ({
      ...fields,
      attachments: files.map((file) => ({ filename: file.filename, contentType: file.contentType, contentBase64: file.content.toString('base64') })),
    }),
    response: result,
    result: (data) => data.sendEmail,
    codeFor: emailCode,
    internalErrorCode: 'KER-NOE-500',
  }),
];
