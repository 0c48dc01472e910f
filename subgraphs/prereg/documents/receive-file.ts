import { readFile } from 'node:fs/promises';
import type { Logger } from '../../../lib/log.js';
import type { StagedUpload, UploadSpool } from '../../../lib/uploads/spool.js';
import type { VirusScanner } from '../../../lib/virus-scan/index.js';
import type { Caller } from '../applications/types.js';
import type { PreregRules } from '../configuration/service.js';
import { documentErrors, requestErrors } from '../errors.js';
import { documentFormat } from './file-format.js';
import type { UploadInput } from './types.js';

export interface FileParts {
  spool: Pick<UploadSpool, 'claim' | 'stageBuffer' | 'release'>;
  scanner: Pick<VirusScanner, 'scanFile'>;
  logger: Logger;
}

/** An uploaded file that passed every check: its bytes, name and format. */
export interface ReceivedFile {
  bytes: Buffer;
  fileName: string;
  docFileFormat: string;
}

/** Whether the upload names a file at all (before anything else is checked: PRG_CORE_REQ_001). */
export function checkFilePresent(input: UploadInput): void {
  if (!input.stagedUploadId && !input.content) throw requestErrors.missing('file');
}

/**
 * The uploaded file, checked in this order: its name's length, its size
 * (read from the spool's count: a file over the limit is never read into
 * memory), a virus scan of the spooled file, then its type by extension
 * and by content. REST's file was spooled by the edge and is claimed here
 * by its id and the caller; a GraphQL caller's base64 is spooled here the
 * same way, so one path checks both doors.
 */
export async function receiveFile(parts: FileParts, caller: Caller, input: UploadInput, rules: PreregRules): Promise<ReceivedFile> {
  const fileName = input.fileName?.trim() ?? '';
  if (!fileName) throw requestErrors.missing('file name');
  if (fileName.length > rules.documentNameLength) throw requestErrors.invalid('file name', `longer than ${rules.documentNameLength} characters`);
  const staged = await stage(parts, caller, input, fileName, rules.documentMaxBytes);
  try {
    if (staged.upload.truncated || staged.upload.size > rules.documentMaxBytes) throw documentErrors.size(rules.documentMaxBytes);
    await scan(parts, staged.upload);
    const bytes = await readFile(staged.upload.path);
    const docFileFormat = documentFormat(fileName, bytes, rules.documentTypes);
    if (!docFileFormat) throw documentErrors.format(rules.documentTypes.join(', '));
    return { bytes, fileName, docFileFormat };
  } finally {
    if (staged.ours) await parts.spool.release(staged.upload.id);
  }
}

async function stage(parts: FileParts, caller: Caller, input: UploadInput, fileName: string, maxBytes: number) {
  if (input.stagedUploadId) {
    const upload = parts.spool.claim(input.stagedUploadId, caller.subject);
    if (!upload) throw requestErrors.invalid('stagedUploadId', 'no such upload of this caller');
    return { upload, ours: false };
  }
  const bytes = Buffer.from(input.content ?? '', 'base64');
  // Decoded already (the request held it): one over the limit is refused before it is written anywhere.
  if (bytes.length > maxBytes) throw documentErrors.size(maxBytes);
  return { upload: await parts.spool.stageBuffer(bytes, caller.subject, fileName), ours: true };
}

/** An infected file, or one that could not be scanned (clamd unreachable, too slow), is refused: PRG_PAM_DOC_010. */
async function scan(parts: FileParts, upload: StagedUpload): Promise<void> {
  const verdict = await parts.scanner.scanFile(upload.path).catch((error: unknown) => {
    parts.logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'a pre-registration document could not be scanned for viruses');
    throw documentErrors.virus();
  });
  if (verdict.infected) {
    parts.logger.warn({ signature: verdict.signature }, 'a pre-registration document was refused: a virus was found');
    throw documentErrors.virus();
  }
}
