import { z } from 'zod';
import type { Channel } from './service.js';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { identifier, pageArguments, text } from '../../lib/input.js';

const address = identifier(4096);
const MAX_RECIPIENTS = 100;

/** REST's e-mail form: an address field sent once, several times, or comma-separated. */
const formAddresses = z.union([address, z.array(address).max(MAX_RECIPIENTS)]).transform((value) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean),
);

const subject = identifier(998);
const body = text(1024 * 1024);
const emailText = { mailSubject: subject, mailContent: body.nullish() };

/** The graph's EMAIL or SMS, as the service and its rows spell it. */
const channel = z.enum(['EMAIL', 'SMS']).transform((value) => value.toLowerCase() as Channel);
/**
 * A template's cursor is the JSON of its code, language and channel (at most 160 UTF-16 units,
 * each at most 6 bytes once escaped): up to 1,300 characters of base64url; a message's is a UUID.
 */
const page = pageArguments(1400);
/** The portal's reads: a bad argument is the caller's mistake, as a bad cursor of them. */
const READS = new Set(['outbox', 'notifications', 'notificationTemplates']);

function notifyCodeFor(field: string, missing: boolean, rootField: string): string {
  if (rootField === 'sendSms') return missing || field !== 'number' ? 'KER-NOS-001' : 'KER-NOS-002';
  if (rootField === 'saveNotificationTemplate') return 'KER-NOE-008';
  if (READS.has(rootField)) return 'BAD_USER_INPUT';
  if (field.startsWith('mailTo')) return 'KER-NOE-001';
  if (field === 'mailSubject') return 'KER-NOE-002';
  return field.startsWith('attachments') ? 'KER-NOE-007' : 'KER-NOE-006';
}

/** The arguments of the notification service's root fields; REST's multipart form shares their rules. */
export const notifyInputs = fieldInputs(
  {
    sendSms: z.object({ number: identifier(64), message: text(4096) }),
    sendEmail: z.object({
      mailTo: z.array(address).max(MAX_RECIPIENTS),
      mailCc: z.array(address).max(MAX_RECIPIENTS).nullish(),
      ...emailText,
      attachments: z
        .array(z.object({ filename: identifier(255), contentType: identifier(255).nullish(), contentBase64: z.string() }))
        .max(10)
        .nullish(),
    }),
    // `to`: a whole address, or several comma-separated; the service bounds `limit` (1 to 500)
    outbox: z.object({ to: address.nullish(), channel: channel.nullish(), limit: z.number().int().nullish() }),
    notifications: z.object({
      ...page,
      filter: z.object({ to: address.nullish(), channel: channel.nullish(), status: z.enum(['OUTBOX', 'PENDING', 'SENT', 'FAILED']).nullish() }).nullish(),
    }),
    notificationTemplates: z.object(page),
    // the service checks the language (three letters) and that code and body are not blank (KER-NOE-008)
    saveNotificationTemplate: z.object({ code: identifier(128), langCode: identifier(16), channel, subject: subject.nullish(), body }),
  },
  notifyCodeFor,
);

/** The text fields of REST's multipart e-mail form (its files come apart). */
export const emailForm = z.object({ mailTo: formAddresses, mailCc: formAddresses.optional(), ...emailText });
