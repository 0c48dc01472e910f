import { z } from 'zod';
import { emailForm, notifyInputs } from '../../subgraphs/notify/inputs.js';
import * as ops from '../../generated/graphql/notify.operations.js';
import { operation } from '../operations.js';
import { defineRoute, type RestRoute } from '../route.js';

const result = z.object({ status: z.string(), message: z.string() });

const { schemas, codeFor } = notifyInputs;
const emailCode = (field: string, missing: boolean) => codeFor(field, missing, 'sendEmail');

export const notifyRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: '/v1/smsnotifier/sms/send',
    summary: 'Send an SMS (to the outbox when no SMS gateway is configured)',
    id: 'platform.kernel.sms.send',
    input: { from: 'envelope', schema: schemas.sendSms },
    operation: operation(ops.SendSmsDocument),
    variables: (input) => input,
    response: result,
    result: (data) => data.sendSms,
    codeFor: (field, missing) => codeFor(field, missing, 'sendSms'),
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
