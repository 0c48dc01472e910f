import type { TestPlatform } from './platform.js';
import { PREREG, preregEnvelope } from './prereg.js';

/** A small, valid PDF carrying `text` in a comment (a marker a dump must not show). */
export const pdfWith = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');

/** The leading bytes of a PNG, and a body: enough for the content check. */
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-test-body')]);

export interface UploadOptions {
  file?: { name: string; bytes: Buffer } | null;
  /** the `Document request` part's text, as sent; by default an envelope of `request` */
  envelopeText?: string;
  /** fields of the envelope replaced or added (id, version, requesttime) */
  envelope?: Record<string, unknown>;
}

/** The `request` of an upload: a POA rental contract in English by default. */
export const documentRequest = (over: Record<string, unknown> = {}) => ({ docCatCode: 'POA', docTypCode: 'RNC', langCode: 'eng', refNumber: 'RC-1', ...over });

/** POST /documents/{preRegistrationId} as MOSIP's portal sends it: multipart `file` and `Document request` (the envelope as JSON text). */
export async function uploadDocument(
  t: TestPlatform,
  cookie: Record<string, string>,
  preRegId: string,
  request: Record<string, unknown> = documentRequest(),
  options: UploadOptions = {},
): Promise<{ status: number; json: any }> {
  const form = new FormData();
  const file = options.file === undefined ? { name: 'lease.pdf', bytes: pdfWith('lease') } : options.file;
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: 'application/octet-stream' }), file.name);
  const envelope = preregEnvelope(t, 'document.upload', request, options.envelope ?? {});
  form.append('Document request', options.envelopeText ?? JSON.stringify(envelope));
  const response = await fetch(`${t.baseUrl}${PREREG}/documents/${preRegId}`, { method: 'POST', body: form, headers: cookie });
  return { status: response.status, json: await response.json() };
}

export const codeOf = (answer: { json: { errors?: { errorCode: string }[] | null } }) => answer.json.errors?.[0]?.errorCode;
