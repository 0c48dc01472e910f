import { randomBytes, type KeyObject } from 'node:crypto';
import { aesGcmEncrypt, rsaWrap } from '../../../lib/crypto/envelope.js';
import { writeZip } from '../../../lib/packet/zip.js';
import type { SyncDocument } from './types.js';

/** The ID schema field of ID.json each document category fills (MOSIP's poa/poi/por/pod fields; POB proves the date of birth too). */
export const CATEGORY_FIELDS: Readonly<Record<string, string>> = {
  POA: 'proofOfAddress',
  POI: 'proofOfIdentity',
  POR: 'proofOfRelationship',
  POD: 'proofOfDateOfBirth',
  POB: 'proofOfDateOfBirth',
};

/** A document with the name of its type, in its own language (the code when master data has none). */
export interface ArchiveDocument extends SyncDocument {
  typeName: string;
}

/** Path separators and control characters never reach an entry name: a file name is the applicant's text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\\/\u0000-\u001f\u007f]/g;

/**
 * How a document is named in the ZIP: `<category>_<file name>` (MOSIP's
 * entry), and the `value` and `format` ID.json gives it, which the
 * registration client joins as `value.format` to find the entry.
 */
export function entryOf(document: Pick<SyncDocument, 'docCatCode' | 'docName' | 'docFileFormat'>): { value: string; format: string; name: string } {
  const dot = document.docName.lastIndexOf('.');
  const base = (dot > 0 ? document.docName.slice(0, dot) : document.docName).replace(UNSAFE, '_');
  const format = dot > 0 ? document.docName.slice(dot + 1).replace(UNSAFE, '_') : document.docFileFormat;
  const value = `${document.docCatCode}_${base}`;
  return { value, format, name: `${value}.${format}` };
}

/**
 * One pre-registration as the registration client reads it (MOSIP's
 * DataSyncServiceUtil.archivingFiles): `ID.json` = {"identity": the
 * applicant's identity, each document category's field set to {value, type,
 * format, refNumber}}, and one entry per document with its bytes.
 */
export function archiveZip(identity: Record<string, unknown>, documents: readonly ArchiveDocument[], modified: Date): Buffer {
  const fields: Record<string, unknown> = { ...identity };
  const entries = documents.map((document) => {
    const { value, format, name } = entryOf(document);
    const field = CATEGORY_FIELDS[document.docCatCode];
    if (field) fields[field] = { value, type: document.typeName, format, refNumber: document.refNumber };
    return { name, data: document.bytes };
  });
  return writeZip([{ name: 'ID.json', data: Buffer.from(JSON.stringify({ identity: fields }), 'utf8') }, ...entries], { modified });
}

const IV_BYTES = 12;
const AAD_BYTES = 32;

/**
 * Seals data for one registration client machine as MOSIP's
 * ClientCryptoFacade does: a fresh AES-256 key wrapped with RSA-OAEP
 * (SHA-256, MGF1 SHA-256) for the machine's key, then wrapped key (256
 * bytes) || IV (12) || AAD (32) || AES-GCM ciphertext with its tag. Only
 * the holder of the machine's private key opens it.
 */
export function sealForMachine(publicKey: KeyObject, data: Buffer): Buffer {
  const key = randomBytes(32);
  const iv = randomBytes(IV_BYTES);
  const aad = randomBytes(AAD_BYTES);
  return Buffer.concat([rsaWrap(publicKey, key), iv, aad, aesGcmEncrypt(key, iv, data, aad)]);
}
