import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateRsaKeyPair, issueCertificate } from '../../lib/crypto/certificates.js';
import { decodeBase64Any, decryptRegistration, type PrivateKeyLookup } from '../../lib/crypto/envelope.js';
import { bdbDigests, parseCbeff } from '../../lib/packet/cbeff.js';
import { makeRid, packetHash, packetProblems, readPacketZip } from '../../lib/packet/format.js';
import { buildPacketZip, sealPacket, syncRecordOf, syncRequestBody, type PacketInput } from '../../lib/packet/write.js';
import { packetInputOf, sampleCities, sampleResident } from '../../tools/registration/sample-resident.js';
import { readZip, writeZip } from '../../lib/packet/zip.js';

const LIMITS = { maxUncompressedBytes: 20 * 1024 * 1024 };
const NOW = new Date('2026-11-25T06:00:00.000Z');
const EMPTY_SHA256 = 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855';
const sha256Hex = (...parts: Buffer[]) =>
  parts
    .reduce((hash, part) => hash.update(part), createHash('sha256'))
    .digest('hex')
    .toUpperCase();

const resident = sampleResident('format-test', { now: NOW });
const input = (over: Partial<PacketInput> = {}): PacketInput =>
  packetInputOf(makeRid('10001', '10001', 42, NOW), { centre: '10001', machine: '10001' }, resident, NOW, over);

/** The zip's entries by name, as a map. */
const filesOf = async (zip: Buffer) => new Map((await readZip(zip, LIMITS)).map((entry) => [entry.name, entry.data]));
/** The same zip with entries replaced or added (undefined: removed). */
async function rezip(zip: Buffer, changes: Record<string, Buffer | undefined>): Promise<Buffer> {
  const files = await filesOf(zip);
  for (const [name, data] of Object.entries(changes)) {
    if (data) files.set(name, data);
    else files.delete(name);
  }
  return writeZip([...files].map(([name, data]) => ({ name, data })));
}

describe('RIDs', () => {
  it('makes 29 digits: centre, machine, sequence, then yyyyMMddHHmmss in UTC', () => {
    expect(makeRid('10001', '10002', 42, new Date('2026-11-25T06:07:08.999Z'))).toBe('10001100020004220261125060708');
    expect(makeRid('7', '12', 0, NOW)).toBe('00007000120000020261125060000');
    expect(makeRid('10001', '10001', 99_999, NOW)).toHaveLength(29);
    expect(() => makeRid('100011', '10001', 1, NOW)).toThrow(RangeError);
    expect(() => makeRid('10001', 'AB', 1, NOW)).toThrow(RangeError);
    expect(() => makeRid('10001', '10001', 100_000, NOW)).toThrow(RangeError);
  });
});

describe('the packet zip (ABIS.md (e))', () => {
  it('holds ID.json, the CBEFF, the document, the metadata and both hash files', async () => {
    const zip = buildPacketZip(input());
    const files = await filesOf(zip);
    expect([...files.keys()]).toEqual([
      'ID.json',
      'individualBiometrics_bio_CBEFF.xml',
      'proofOfAddress.pdf',
      'packet_meta_info.json',
      'packet_data_hash.txt',
      'packet_operations_hash.txt',
    ]);
    const identity = JSON.parse(files.get('ID.json')!.toString()).identity;
    expect(identity.individualBiometrics).toEqual({ format: 'cbeff', version: 1.0, value: 'individualBiometrics_bio_CBEFF' });
    expect(identity.proofOfAddress).toEqual({ format: 'pdf', type: resident.documents[0]!.type, value: 'proofOfAddress' });
    expect(identity.fullName).toEqual(resident.identity.fullName);
    expect(files.get('individualBiometrics_bio_CBEFF.xml')).toEqual(resident.cbeff);
    expect(files.get('proofOfAddress.pdf')).toEqual(resident.documents[0]!.data);

    const meta = JSON.parse(files.get('packet_meta_info.json')!.toString()).identity;
    expect(meta.metaData).toEqual([
      { label: 'registrationId', value: '10001100010004220261125060000' },
      { label: 'registrationType', value: 'NEW' },
      { label: 'centerId', value: '10001' },
      { label: 'machineId', value: '10001' },
      { label: 'creationDate', value: '2026-11-25T06:00:00.000Z' },
    ]);
    // How each signed in at the client (MOSIP's labels): by password unless told.
    expect(meta.operationsData).toEqual([
      { label: 'officerId', value: 'sample-officer' },
      { label: 'officerPassword', value: 'true' },
      { label: 'officerOTPAuthentication', value: 'false' },
      { label: 'supervisorId', value: 'sample-supervisor' },
      { label: 'supervisorPassword', value: 'true' },
      { label: 'supervisorOTPAuthentication', value: 'false' },
    ]);
    expect(meta.hashSequence1).toEqual([
      { label: 'biometricSequence', value: ['individualBiometrics_bio_CBEFF'] },
      { label: 'demographicSequence', value: ['ID', 'proofOfAddress'] },
    ]);
    expect(meta.hashSequence2).toEqual([{ label: 'otherFiles', value: [] }]);
  });

  it('hashes the files of each sequence in order, uppercase hex SHA-256; an empty sequence hashes nothing', async () => {
    const files = await filesOf(buildPacketZip(input()));
    const expected = sha256Hex(files.get('individualBiometrics_bio_CBEFF.xml')!, files.get('ID.json')!, files.get('proofOfAddress.pdf')!);
    expect(files.get('packet_data_hash.txt')!.toString()).toBe(expected);
    expect(files.get('packet_operations_hash.txt')!.toString()).toBe(EMPTY_SHA256);
    expect(packetHash(Buffer.alloc(0))).toBe(EMPTY_SHA256);
    expect(packetHash(Buffer.from('abc'))).toBe(createHash('sha256').update('abc').digest('hex').toUpperCase());
  });

  it('reads back the metadata, the CBEFF and the documents by field, with no problems', async () => {
    const read = await readPacketZip(buildPacketZip(input()), LIMITS);
    expect(read.meta).toEqual({
      registrationId: '10001100010004220261125060000',
      registrationType: 'NEW',
      centerId: '10001',
      machineId: '10001',
      creationDate: '2026-11-25T06:00:00.000Z',
      officerId: 'sample-officer',
      supervisorId: 'sample-supervisor',
    });
    expect(read.cbeff).toEqual(resident.cbeff);
    expect([...read.documents]).toEqual([['proofOfAddress', resident.documents[0]!.data]]);
    expect(read.entries).toHaveLength(6);
    expect(packetProblems(read)).toEqual([]);
  });

  it('names each problem by file and field, never by value', async () => {
    const zip = buildPacketZip(input());
    const files = await filesOf(zip);
    const problemsOf = async (changes: Record<string, Buffer | undefined>) => packetProblems(await readPacketZip(await rezip(zip, changes), LIMITS));

    expect(await problemsOf({ 'proofOfAddress.pdf': Buffer.from('%PDF-1.4 another document') })).toEqual([
      'packet_data_hash.txt does not match the files of hashSequence1',
    ]);
    expect(await problemsOf({ 'proofOfAddress.pdf': undefined })).toEqual([
      'ID.json field proofOfAddress names the file proofOfAddress, which is missing',
      'hashSequence1 names the file proofOfAddress, which is missing',
    ]);
    expect(await problemsOf({ 'packet_operations_hash.txt': Buffer.from('00'.repeat(32)) })).toEqual([
      'packet_operations_hash.txt does not match the files of hashSequence2',
    ]);
    expect(await problemsOf({ 'packet_data_hash.txt': undefined })).toEqual(['packet_data_hash.txt is missing']);
    expect(await problemsOf({ 'ID.json': Buffer.from('{"identity": ') })).toEqual([
      'ID.json is not JSON',
      'packet_data_hash.txt does not match the files of hashSequence1',
    ]);
    expect(await problemsOf({ 'ID.json': undefined })).toEqual(['ID.json is missing', 'hashSequence1 names the file ID, which is missing']);
    expect(await problemsOf({ 'packet_meta_info.json': Buffer.from('not json') })).toEqual(['packet_meta_info.json is not JSON']);
    const meta = JSON.parse(files.get('packet_meta_info.json')!.toString());
    meta.identity.metaData = meta.identity.metaData.filter((item: { label: string }) => item.label !== 'centerId');
    delete meta.identity.hashSequence1;
    expect(await problemsOf({ 'packet_meta_info.json': Buffer.from(JSON.stringify(meta)) })).toEqual([
      'packet_meta_info.json metaData lacks centerId',
      'packet_meta_info.json has no well-formed hashSequence1',
    ]);
    // the same base name twice is ambiguous
    expect(await problemsOf({ 'proofOfAddress.png': Buffer.from('png') })).toContain('more than one file is named proofOfAddress (extension aside)');

    // no message carries a value of the identity
    const everything = [
      ...(await problemsOf({ 'proofOfAddress.pdf': undefined, 'ID.json': Buffer.from('[') })),
      ...(await problemsOf({ 'individualBiometrics_bio_CBEFF.xml': Buffer.from('x') })),
    ].join(' ');
    const values = JSON.stringify(resident.identity).match(/"value":"[^"]+"/g)!;
    for (const value of values) expect(everything).not.toContain(value.slice(9, -1));
  });

  it('refuses a zip over the size limit before reading it', async () => {
    await expect(readPacketZip(buildPacketZip(input()), { maxUncompressedBytes: 1000 })).rejects.toThrow(/more than the limit/);
  });
});

describe('encryption for the REGISTRATION keys', () => {
  let certificatePem: string;
  let lookup: PrivateKeyLookup;
  beforeAll(async () => {
    const pair = await generateRsaKeyPair();
    certificatePem = issueCertificate({
      publicKeyPem: pair.publicKey,
      subject: { commonName: 'REGISTRATION 10001_10001' },
      validFrom: new Date(Date.now() - 60_000),
      validTo: new Date(Date.now() + 86_400_000),
      ca: false,
      selfPrivateKeyPem: pair.privateKey,
    });
    const thumbprint = createHash('sha256').update(new X509Certificate(certificatePem).raw).digest();
    const privateKey = createPrivateKey(pair.privateKey);
    lookup = (candidate) => Promise.resolve(candidate.equals(thumbprint) ? privateKey : undefined);
  });

  it('seals the packet with E_REG: nonce, aad, thumbprint, wrapped key, splitter, data; it decrypts to the zip', async () => {
    const zip = buildPacketZip(input());
    const sealed = sealPacket(zip, certificatePem);
    expect(sealed.length).toBe(12 + 32 + 32 + 256 + 14 + zip.length + 16);
    expect(sealed.subarray(44, 76)).toEqual(createHash('sha256').update(new X509Certificate(certificatePem).raw).digest());
    expect(sealed.subarray(332, 346).toString()).toBe('#KEY_SPLITTER#');
    expect(await decryptRegistration(sealed, lookup)).toEqual(zip);
    expect(() => sealPacket(zip, 'not a certificate')).toThrow(/not a PEM X.509 certificate/);
  });

  it('makes the sync body: a JSON string of base64url(E_REG(sync request)) with the hash and size of the sealed packet', async () => {
    const sealed = sealPacket(buildPacketZip(input()), certificatePem);
    const record = syncRecordOf('10001100010004220261125060000', sealed, { supervisorComment: 'ok' });
    expect(record).toEqual({
      registrationId: '10001100010004220261125060000',
      registrationType: 'NEW',
      packetHashValue: createHash('sha256').update(sealed).digest('hex').toUpperCase(),
      packetSize: sealed.length,
      supervisorStatus: 'APPROVED',
      supervisorComment: 'ok',
      langCode: 'eng',
      optionalValues: null,
    });
    const body = syncRequestBody([record], certificatePem, NOW);
    const text = JSON.parse(body) as string;
    expect(typeof text).toBe('string');
    expect(text).toMatch(/^[A-Za-z0-9_-]+=*$/);
    const plain = JSON.parse((await decryptRegistration(decodeBase64Any(text), lookup)).toString());
    expect(plain).toEqual({ id: 'platform.registration.sync', version: '1.0', requesttime: '2026-11-25T06:00:00.000Z', request: [record] });
  });
});

describe('sample residents', () => {
  interface SchemaField {
    id: string;
    type: string;
    required: boolean;
    validators?: { type: string; validator: string }[];
    subType?: string;
  }
  const folder = new URL('../../subgraphs/masterdata/sample-country/', import.meta.url);
  const [schema] = JSON.parse(readFileSync(new URL('19-id-schemas.json', folder), 'utf8')) as { idVersion: number; schema: SchemaField[] }[];
  const validDocuments = readFileSync(new URL('08-valid-documents.csv', folder), 'utf8').trim().split('\n').slice(1);

  /** Everything wrong with an ID.json identity against the sample country's schema, independently of the platform's own checker. */
  function schemaProblems(identity: Record<string, unknown>): string[] {
    const problems: string[] = [];
    const fields = new Map(schema!.schema.map((field) => [field.id, field]));
    for (const key of Object.keys(identity)) if (!fields.has(key)) problems.push(`${key} is not in the schema`);
    for (const field of fields.values()) {
      const value = identity[field.id];
      if (value === undefined) {
        if (field.required) problems.push(`${field.id} is required`);
        continue;
      }
      const texts =
        field.type === 'simpleType'
          ? (value as { language: string; value: string }[]).map((item) => item.value)
          : field.type === 'string' || field.type === 'number'
            ? [typeof value === 'number' ? String(value) : (value as string)]
            : [];
      if (field.type === 'simpleType' && (value as { language: string }[]).map((item) => item.language).join() !== 'eng,fra,ara')
        problems.push(`${field.id} is not in the three languages`);
      if (field.type === 'number' && typeof value !== 'number') problems.push(`${field.id} is not a number`);
      for (const validator of field.validators ?? [])
        for (const text of texts) if (!new RegExp(validator.validator).test(text)) problems.push(`${field.id} fails ${validator.validator}`);
      if (field.type === 'documentType') {
        const document = value as { type: string; value: string };
        if (!validDocuments.includes(`${field.subType},${document.type}`)) problems.push(`${field.id} has a type not valid for ${field.subType}`);
      }
      if (field.type === 'biometricsType' && (value as { format: string }).format !== 'cbeff') problems.push(`${field.id} is not cbeff`);
    }
    return problems;
  }

  it('satisfy the sample ID schema (fields, validators, IDSchemaVersion, valid documents) in their packet', async () => {
    for (let i = 0; i < 50; i++) {
      const someone = sampleResident(`schema-${i}`, { now: NOW });
      const read = await readPacketZip(buildPacketZip(input({ identity: someone.identity, cbeff: someone.cbeff, documents: someone.documents })), LIMITS);
      const identity = (read.idJson as { identity: Record<string, unknown> }).identity;
      expect(schemaProblems(identity), someone.seed).toEqual([]);
      expect(identity.IDSchemaVersion).toBe(schema!.idVersion);
      expect(packetProblems(read)).toEqual([]);
    }
  });

  it('live in the sample country: city, province and region of one chain of 03-locations.csv', () => {
    const chains = sampleCities().map((city) => JSON.stringify([city.region[0], city.province[0], city.city[0]]));
    expect(chains).toEqual([JSON.stringify(['Rabat Sale Kenitra', 'Kenitra', 'Kenitra']), JSON.stringify(['Rabat Sale Kenitra', 'Rabat', 'Rabat City'])]);
    const english = (field: unknown) => (field as { language: string; value: string }[])[0]!.value;
    for (let i = 0; i < 20; i++) {
      const { identity } = sampleResident(`where-${i}`, { now: NOW });
      expect(chains).toContain(JSON.stringify([english(identity.region), english(identity.province), english(identity.city)]));
    }
  });

  it('carry 10 fingers, 2 irises and a face; the same seed gives the same resident, different ones never share a BDB', () => {
    const parsed = parseCbeff(resident.cbeff);
    expect(parsed.birs.map((bir) => `${bir.type}/${bir.formatType}`).sort()).toEqual([
      ...Array<string>(1).fill('Face/8'),
      ...Array<string>(10).fill('Finger/7'),
      ...Array<string>(2).fill('Iris/9'),
    ]);
    expect(new Set(parsed.birs.map((bir) => bir.subtype)).size).toBe(13);
    expect(sampleResident('format-test', { now: NOW })).toEqual(resident);
    const digests = new Set<string>();
    for (let i = 0; i < 30; i++) for (const digest of bdbDigests(parseCbeff(sampleResident(`many-${i}`, { now: NOW }).cbeff))) digests.add(digest);
    expect(digests.size).toBe(30 * 13);
  });

  it('duplicateOf copies the biometrics of another resident under another identity', () => {
    const copy = sampleResident('someone-else', { now: NOW, duplicateOf: resident });
    expect(copy.duplicateOf).toBe('format-test');
    expect(copy.identity).not.toEqual(resident.identity);
    expect(bdbDigests(parseCbeff(copy.cbeff))).toEqual(bdbDigests(parseCbeff(resident.cbeff)));
  });

  it('attach a proof of address that is a well-formed PDF', () => {
    const pdf = resident.documents[0]!.data.toString('latin1');
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    // every xref offset points at its object
    const xrefAt = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...pdf.slice(xrefAt).matchAll(/(\d{10}) 00000 n/g)].map((match) => Number(match[1]));
    offsets.forEach((offset, index) => expect(pdf.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true));
  });
});
