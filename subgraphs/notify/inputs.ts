import { z } from 'zod';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { identifier, text } from '../../lib/input.js';

const address = identifier(4096);
const MAX_RECIPIENTS = 100;

/** REST's e-mail form: an address field sent once, several times, or comma-separated. */
const formAddresses = z.union([address, z.array(address).max(MAX_RECIPIENTS)]).transform((value) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean),
);

const emailText = { mailSubject: identifier(998), mailContent: text(1024 * 1024).nullish() };

function notifyCodeFor(field: string, missing: boolean, rootField: string): string {
  if (rootField === 'sendSms') return missing || field !== 'number' ? 'KER-NOS-001' : 'KER-NOS-002';
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
  },
  notifyCodeFor,
);

/** The text fields of REST's multipart e-mail form (its files come apart). */
export const emailForm = z.object({ mailTo: formAddresses, mailCc: formAddresses.optional(), ...emailText });
