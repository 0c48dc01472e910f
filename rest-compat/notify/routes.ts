import { z } from 'zod';
import { notify } from '../../subgraphs/notify/index.js';
import { emailForm, notifyInputs } from '../../subgraphs/notify/inputs.js';
import * as ops from '../../generated/graphql/notify.operations.js';
import type { RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';

const result = z.object({ status: z.string(), message: z.string() });

const { schemas } = notifyInputs;
const route = routeFactory({ component: notify, internalErrorCode: 'KER-NOS-500', idPrefix: 'platform.kernel.' });

export const notifyRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/v1/smsnotifier/sms/send',
    summary: 'Send an SMS (to the outbox when no SMS gateway is configured)',
    idSuffix: 'sms.send',
    input: { from: 'envelope', schema: schemas.sendSms },
    operation: ops.SendSmsDocument,
    response: result,
  }),
  route({
    method: 'post',
    path: '/v1/emailnotifier/email/send',
    summary: 'Send an e-mail from multipart form data, with attachments (to the outbox when no SMTP server is configured)',
    idSuffix: 'email.send',
    input: { from: 'form', schema: emailForm, fileField: 'attachments', maxFileBytes: 5 * 1024 * 1024, maxFiles: 10 },
    operation: ops.SendEmailDocument,
    variables: (fields, _req, files) => ({
      ...fields,
      attachments: files.map((file) => ({ filename: file.filename, contentType: file.contentType, contentBase64: file.content.toString('base64') })),
    }),
    response: result,
    // the e-mail notifier is MOSIP's own service beside the SMS one, with its own code
    internalErrorCode: 'KER-NOE-500',
  }),
];
