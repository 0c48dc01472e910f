// The documents' rules over in-memory parts: a file's format by extension and content, one document per
// category (a new upload keeps the id, the old file goes), a writer that lost a race taking the winner's id,
// locked applications, the copy's category, the scan, and stored bytes that fail their checks.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../lib/errors.js';
import { createLogger } from '../../lib/log.js';
import { ManualClock } from '../../lib/time.js';
import { UploadSpool } from '../../lib/uploads/spool.js';
import type { ApplicationRow, Caller } from '../../subgraphs/prereg/applications/types.js';
import { documentFormat } from '../../subgraphs/prereg/documents/file-format.js';
import type { DocumentCipher } from '../../subgraphs/prereg/documents/sealing.js';
import { ApplicationDocumentsService, type DocumentsParts } from '../../subgraphs/prereg/documents/service.js';
import type { DocumentStore, DocumentWrite, SaveOutcome } from '../../subgraphs/prereg/documents/storage.js';
import type { Locked, StoredDocument, UploadInput } from '../../subgraphs/prereg/documents/types.js';
import { requestErrors } from '../../subgraphs/prereg/errors.js';
import { LOCKED, type ApplicationStatus } from '../../subgraphs/prereg/statuses.js';

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]);
const SHIPPED_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/jpg'];

describe('a document’s format', () => {
  it('is its extension when the configuration allows its type and its bytes are that type’s', () => {
    expect(documentFormat('lease.pdf', PDF, SHIPPED_TYPES)).toBe('pdf');
    expect(documentFormat('LEASE.PDF', PDF, SHIPPED_TYPES)).toBe('pdf');
    expect(documentFormat('card.png', PNG, SHIPPED_TYPES)).toBe('png');
    expect(documentFormat('photo.jpeg', JPEG, ['image/jpg'])).toBe('jpeg');
    expect(documentFormat('photo.jpg', JPEG, ['image/jpeg'])).toBe('jpg');
  });

  it('is refused for a renamed file, a type not allowed, an unknown or missing extension, an empty file', () => {
    expect(documentFormat('photo.pdf', PNG, SHIPPED_TYPES)).toBeUndefined();
    expect(documentFormat('card.png', PNG, ['application/pdf'])).toBeUndefined();
    expect(documentFormat('notes.txt', Buffer.from('text'), [...SHIPPED_TYPES, 'text/plain'])).toBeUndefined();
    expect(documentFormat('lease', PDF, SHIPPED_TYPES)).toBeUndefined();
    expect(documentFormat('empty.pdf', Buffer.alloc(0), SHIPPED_TYPES)).toBeUndefined();
  });
});

/** A cipher whose seal names its context: opened elsewhere it fails as the real one does. */
const cipher: DocumentCipher = {
  encrypt: (plain, context) => `${Buffer.from(context).toString('base64url')}.${plain.toString('base64url')}`,
  decrypt: (value, context) => {
    const [bound, body = ''] = value.split('.');
    if (bound !== Buffer.from(context).toString('base64url')) return Promise.reject(requestErrors.decrypt('metadata'));
    return Promise.resolve(Buffer.from(body, 'base64url'));
  },
  hash: (plain, context) => createHash('sha256').update(context).update(plain).digest('hex'),
};

/** Documents in a map; `raceOnce` makes the next first save of a category meet another writer's row. */
class MemoryStore implements DocumentStore {
  rows = new Map<string, StoredDocument>();
  status = new Map<string, string>();
  raceOnce: StoredDocument | undefined;
  byId = (id: string) => Promise.resolve(this.rows.get(id) ?? null);
  ofCategory = (preRegId: string, docCatCode: string) =>
    Promise.resolve([...this.rows.values()].find((row) => row.preRegId === preRegId && row.docCatCode === docCatCode) ?? null);
  ofApplication = (preRegId: string, take: number) => Promise.resolve([...this.rows.values()].filter((row) => row.preRegId === preRegId).slice(0, take));
  ofApplications = (ids: readonly string[]) => Promise.resolve([...this.rows.values()].filter((row) => ids.includes(row.preRegId)));
  private unlocked<T>(preRegId: string, locked: readonly string[], work: () => T): Promise<Locked<T>> {
    const statusCode = this.status.get(preRegId) ?? null;
    return Promise.resolve(statusCode === null || locked.includes(statusCode) ? { done: false, statusCode } : { done: true, value: work() });
  }
  save(row: DocumentWrite, at: Date, locked: readonly string[]): Promise<Locked<SaveOutcome>> {
    return this.unlocked(row.preRegId, locked, (): SaveOutcome => {
      if (this.raceOnce) {
        this.rows.set(this.raceOnce.id, this.raceOnce);
        this.raceOnce = undefined;
      }
      const current = [...this.rows.values()].find((stored) => stored.preRegId === row.preRegId && stored.docCatCode === row.docCatCode);
      if (current && current.id !== row.id) return 'raced';
      this.rows.set(row.id, { ...row, createdAt: current?.createdAt ?? at, updatedAt: current ? at : null });
      return { replacedKey: current?.objectKey ?? null };
    });
  }
  remove(preRegId: string, ids: readonly string[] | null, locked: readonly string[]): Promise<Locked<string[]>> {
    return this.unlocked(preRegId, locked, () => {
      const gone = [...this.rows.values()].filter((row) => row.preRegId === preRegId && (!ids || ids.includes(row.id)));
      for (const row of gone) this.rows.delete(row.id);
      return gone.map((row) => row.objectKey);
    });
  }
  setRefNumber(): Promise<Locked<StoredDocument | null>> {
    return Promise.resolve({ done: true, value: null });
  }
}

const amina: Caller = { subject: 'prereg-amina', roles: ['INDIVIDUAL'] };
const spoolDir = mkdtempSync(path.join(tmpdir(), 'prereg-documents-unit-'));
afterAll(() => rmSync(spoolDir, { recursive: true, force: true }));

let store: MemoryStore;
let objects: Map<string, Buffer>;
let changed: string[];
let verdict: () => Promise<{ infected: false } | { infected: true; signature: string }>;
let service: ApplicationDocumentsService;

function application(id: string, statusCode: ApplicationStatus = 'Application_Incomplete'): ApplicationRow {
  store.status.set(id, statusCode);
  return {
    id,
    createdBy: amina.subject,
    langCode: 'eng',
    statusCode,
    bookingType: 'NEW_PREREGISTRATION',
    createdAt: new Date(),
    updatedBy: null,
    updatedAt: null,
  };
}
const applications = new Map<string, ApplicationRow>();

beforeEach(() => {
  store = new MemoryStore();
  objects = new Map();
  changed = [];
  verdict = () => Promise.resolve({ infected: false });
  applications.clear();
  for (const row of [application('1001'), application('1002'), application('1003', LOCKED[0])]) applications.set(row.id, row);
  const parts: DocumentsParts = {
    store,
    applications: {
      reach: (_caller, id) => (applications.has(id) ? Promise.resolve(applications.get(id)!) : Promise.reject(new PlatformError('PRG_PAM_APP_005', 'none'))),
      documentsChanged: (id) => Promise.resolve(void changed.push(id)),
    },
    cipher,
    rules: () => ({
      cancelHours: 0,
      rebookHours: 0,
      bookingOffsetDays: 2,
      availabilityDays: 30,
      documentNameLength: 50,
      documentMaxBytes: 1000,
      documentTypes: SHIPPED_TYPES,
      languages: ['eng'],
      mandatoryCategories: [],
    }),
    catalogue: { isValid: (cat, type) => Promise.resolve(cat === 'POA' && type === 'RNC'), hasCategory: (cat) => Promise.resolve(cat === 'POA') },
    objects: {
      put: (key, data) => Promise.resolve(void objects.set(key, data)),
      get: (key) => Promise.resolve(objects.get(key) ?? null),
      delete: (key) => Promise.resolve(void objects.delete(key)),
    },
    spool: new UploadSpool(spoolDir, 10_000),
    scanner: { scanFile: () => verdict() },
    clock: new ManualClock(),
    logger: createLogger('silent'),
  };
  service = new ApplicationDocumentsService(parts);
});

const upload = (over: Partial<UploadInput> = {}) =>
  service.upload(amina, {
    preRegistrationId: '1001',
    docCatCode: 'POA',
    docTypCode: 'RNC',
    langCode: 'eng',
    fileName: 'lease.pdf',
    content: PDF.toString('base64'),
    ...over,
  });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'none',
    (error: PlatformError) => error.code,
  );

describe('the documents of an application', () => {
  it('keeps one per category: a new upload keeps the id and replaces the file', async () => {
    const first = await upload();
    const second = await upload({ fileName: 'card.png', content: PNG.toString('base64') });
    expect(second.documentId).toBe(first.documentId);
    expect(objects.size).toBe(1);
    expect((await service.content(amina, '1001', first.documentId)).document).toBe(PNG.toString('base64'));
    expect(changed).toEqual(['1001', '1001']);
    // The base64 caller's spooled files are gone once answered.
    expect(readdirSync(path.join(spoolDir, 'spool'))).toEqual([]);
  });

  it('takes the id of a writer that stored the category first, and seals again for it', async () => {
    const winner = await upload();
    const row = store.rows.get(winner.documentId)!;
    // This writer finds no document of the category and picks a new id; the winner's row lands just before it saves.
    store.rows.delete(row.id);
    store.raceOnce = row;
    const stored = await upload({ fileName: 'card.png', content: PNG.toString('base64') });
    expect(stored.documentId).toBe(winner.documentId);
    expect((await service.content(amina, '1001', winner.documentId)).document).toBe(PNG.toString('base64'));
    expect(objects.size).toBe(1);
  });

  it('changes nothing of a locked application, and copies only the proof of address', async () => {
    expect(await codeOf(upload({ preRegistrationId: '1003' }))).toBe('PRG_PAM_DOC_024');
    expect(await codeOf(service.copy(amina, '1001', '1002', 'POI'))).toBe('PRG_CORE_REQ_017');
    expect(await codeOf(service.copy(amina, '1001', '1002', 'POA'))).toBe('PRG_PAM_DOC_005');
    expect(objects.size).toBe(0);
    expect(changed).toEqual([]);
  });

  it('refuses an infected file and one the scanner could not scan, keeping nothing', async () => {
    verdict = () => Promise.resolve({ infected: true, signature: 'Test.EICAR' });
    expect(await codeOf(upload())).toBe('PRG_PAM_DOC_010');
    verdict = () => Promise.reject(new Error('connect ECONNREFUSED'));
    expect(await codeOf(upload())).toBe('PRG_PAM_DOC_010');
    expect(await codeOf(upload({ content: Buffer.alloc(1001).toString('base64') }))).toBe('PRG_PAM_DOC_007');
    expect([objects.size, store.rows.size]).toEqual([0, 0]);
  });

  it('checks the language, the category and the type, in that order', async () => {
    expect(await codeOf(upload({ langCode: 'fra', docCatCode: 'XYZ' }))).toBe('PRG_CORE_REQ_014');
    expect(await codeOf(upload({ docCatCode: 'XYZ', docTypCode: 'XYZ' }))).toBe('PRG_CORE_REQ_018');
    expect(await codeOf(upload({ docTypCode: 'PAS' }))).toBe('PRG_CORE_REQ_017');
    expect(await codeOf(upload({ content: null }))).toBe('PRG_CORE_REQ_001');
  });

  it('refuses bytes sealed for another document, and bytes that fail their HMAC', async () => {
    const [mine, other] = [await upload(), await upload({ preRegistrationId: '1002' })];
    const row = store.rows.get(mine.documentId)!;
    const original = objects.get(row.objectKey)!;
    objects.set(row.objectKey, objects.get(store.rows.get(other.documentId)!.objectKey)!);
    expect(await codeOf(service.content(amina, '1001', mine.documentId))).toBe('PRG_CORE_REQ_012');
    objects.set(row.objectKey, original);
    store.rows.set(row.id, { ...row, hash: '00'.repeat(32) });
    expect(await codeOf(service.content(amina, '1001', mine.documentId))).toBe('PRG_CORE_REQ_010');
    expect(await codeOf(service.content(amina, '1002', mine.documentId))).toBe('PRG_PAM_DOC_022');
  });
});
