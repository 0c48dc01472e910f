import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildCbeff, FINGER_SUBTYPES, IRIS_SUBTYPES, type BirInput } from '../../lib/packet/cbeff.js';
import type { PacketDocument, PacketInput } from '../../lib/packet/write.js';

/**
 * Sample residents of the sample country (subgraphs/masterdata/sample-country):
 * identities that satisfy its published ID schema, living in its locations,
 * with a proof of address and 13 biometrics. Everything derives from a seed,
 * so a run can be replayed; BDBs are SHA-256 streams of the seed, so two
 * residents with different seeds never share a biometric (mock ABIS dedupes
 * on the BDB's SHA-256), unless one is made a duplicate of the other.
 */

const SAMPLE_COUNTRY = new URL('../../subgraphs/masterdata/sample-country/', import.meta.url);
const LANGUAGES = ['eng', 'fra', 'ara'] as const;
type Multilingual = readonly [eng: string, fra: string, ara: string];

const FEMALE: readonly (readonly [string, string])[] = [
  ['Amina', 'أمينة'],
  ['Fatima', 'فاطمة'],
  ['Khadija', 'خديجة'],
  ['Salma', 'سلمى'],
  ['Meryem', 'مريم'],
  ['Nadia', 'نادية'],
  ['Houda', 'هدى'],
  ['Zineb', 'زينب'],
  ['Imane', 'إيمان'],
  ['Sara', 'سارة'],
  ['Leila', 'ليلى'],
  ['Hajar', 'هاجر'],
];
const MALE: readonly (readonly [string, string])[] = [
  ['Youssef', 'يوسف'],
  ['Omar', 'عمر'],
  ['Mehdi', 'مهدي'],
  ['Hamza', 'حمزة'],
  ['Karim', 'كريم'],
  ['Rachid', 'رشيد'],
  ['Anas', 'أنس'],
  ['Ayoub', 'أيوب'],
  ['Said', 'سعيد'],
  ['Hicham', 'هشام'],
  ['Driss', 'إدريس'],
  ['Amine', 'أمين'],
];
const FAMILY: readonly (readonly [string, string])[] = [
  ['Benali', 'بنعلي'],
  ['El Amrani', 'العمراني'],
  ['Alaoui', 'العلوي'],
  ['Bennani', 'بناني'],
  ['Tazi', 'التازي'],
  ['Idrissi', 'الإدريسي'],
  ['Berrada', 'برادة'],
  ['Chraibi', 'الشرايبي'],
  ['Lahlou', 'لحلو'],
  ['Ouazzani', 'الوزاني'],
  ['Fassi', 'الفاسي'],
  ['Kettani', 'الكتاني'],
  ['Benjelloun', 'بنجلون'],
  ['Mansouri', 'المنصوري'],
];
const STREETS: readonly Multilingual[] = [
  ['Mohammed V Avenue', 'Avenue Mohammed V', 'شارع محمد الخامس'],
  ['Hassan II Avenue', 'Avenue Hassan II', 'شارع الحسن الثاني'],
  ['Olive Tree Street', 'Rue de l’Olivier', 'زنقة شجرة الزيتون'],
  ['Palm Street', 'Rue des Palmiers', 'زنقة النخيل'],
  ['Independence Boulevard', 'Boulevard de l’Indépendance', 'شارع الاستقلال'],
  ['Atlas Street', 'Rue de l’Atlas', 'زنقة الأطلس'],
];
const GENDERS: Readonly<Record<'female' | 'male', Multilingual>> = { female: ['Female', 'Féminin', 'أنثى'], male: ['Male', 'Masculin', 'ذكر'] };
const RESIDENT: Multilingual = ['Non-Foreigner', 'Non-étranger', 'غير أجنبي'];
const FOREIGNER: Multilingual = ['Foreigner', 'Étranger', 'أجنبي'];
/** Postal codes of the sample cities (the master data has none). */
const POSTAL_CODES: Readonly<Record<string, string>> = { KTA: '14000', RBTC: '10000' };
/** Proof of address types valid for adults (10-applicant-valid-documents.csv: POA -> RNC, CIN). */
const ADDRESS_PROOFS = [
  { type: 'RNC', title: 'Rental contract' },
  { type: 'CIN', title: 'Reference Identity Card' },
];

/** A city of the sample country with its province and region, by language. */
interface City {
  code: string;
  city: Multilingual;
  province: Multilingual;
  region: Multilingual;
}

let cities: City[] | undefined;
/** The cities (hierarchy level 3) of 03-locations.csv with their parents, read once. */
export function sampleCities(): City[] {
  if (cities) return cities;
  const [, ...rows] = readFileSync(new URL('03-locations.csv', SAMPLE_COUNTRY), 'utf8').trim().split(/\r?\n/);
  const names = new Map<string, Map<string, string>>();
  const parents = new Map<string, string>();
  const levels = new Map<string, number>();
  for (const row of rows) {
    const [code, langCode, name, level, , parent] = row.split(',');
    if (!code || !langCode || !name) continue;
    if (!names.has(code)) names.set(code, new Map());
    names.get(code)!.set(langCode, name);
    levels.set(code, Number(level));
    if (parent) parents.set(code, parent);
  }
  const inAll = (code: string): Multilingual => {
    const byLanguage = names.get(code)!;
    const eng = byLanguage.get('eng') ?? code;
    return [eng, byLanguage.get('fra') ?? eng, byLanguage.get('ara') ?? eng];
  };
  cities = [...levels]
    .filter(([, level]) => level === 3)
    .map(([code]) => {
      const province = parents.get(code)!;
      return { code, city: inAll(code), province: inAll(province), region: inAll(parents.get(province)!) };
    });
  return cities;
}

/** The idVersion of the sample country's newest published ID schema: the identity's IDSchemaVersion. */
let idSchemaVersion: number | undefined;
export function sampleIdSchemaVersion(): number {
  if (idSchemaVersion !== undefined) return idSchemaVersion;
  const schemas = JSON.parse(readFileSync(new URL('19-id-schemas.json', SAMPLE_COUNTRY), 'utf8')) as { status: string; idVersion: number }[];
  idSchemaVersion = Math.max(...schemas.filter((schema) => schema.status === 'PUBLISHED').map((schema) => schema.idVersion));
  return idSchemaVersion;
}

/** Deterministic bytes and choices from a seed: SHA-256 in counter mode, one stream per label. */
class Seeded {
  constructor(private readonly seed: string) {}

  bytes(label: string, length: number): Buffer {
    const blocks: Buffer[] = [];
    for (let counter = 0; blocks.length * 32 < length; counter++) blocks.push(createHash('sha256').update(`${this.seed}\0${label}\0${counter}`).digest());
    return Buffer.concat(blocks).subarray(0, length);
  }

  /** 0 <= n < below */
  int(label: string, below: number): number {
    return this.bytes(label, 6).readUIntBE(0, 6) % below;
  }

  pick<T>(label: string, items: readonly T[]): T {
    return items[this.int(label, items.length)]!;
  }

  /** A UUID-shaped index (the BDBInfo Index), stable for the seed. */
  uuid(label: string): string {
    const hex = this.bytes(label, 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}

const multilingual = (values: Multilingual) => LANGUAGES.map((language, index) => ({ language, value: values[index]! }));

/** A one-page PDF with these lines of ASCII text (Helvetica), offsets and xref computed. */
export function minimalPdf(lines: readonly string[]): Buffer {
  const escape = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const content = `BT /F1 12 Tf 72 770 Td 16 TL ${lines.map((line) => `(${escape(line)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** ISO 19794 record headers (format identifier and version), so that BDBs look like what they stand for. */
const ISO_HEADER: Readonly<Record<'Finger' | 'Iris' | 'Face', string>> = { Finger: 'FIR\x00020\x00', Iris: 'IIR\x00020\x00', Face: 'FAC\x00030\x00' };

/** 10 fingers, 2 irises and a face, each BDB an ISO header then `bdbBytes` bytes of the seed's stream. */
export function sampleBiometrics(seed: string, options: { bdbBytes?: number; now?: Date } = {}): BirInput[] {
  const random = new Seeded(`biometrics\0${seed}`);
  const size = options.bdbBytes ?? 1024;
  const bir = (type: 'Finger' | 'Iris' | 'Face', subtype: string): BirInput => {
    const label = `${type}/${subtype}`;
    return {
      type,
      subtype,
      bdb: Buffer.concat([Buffer.from(ISO_HEADER[type], 'latin1'), random.bytes(label, size)]),
      quality: 60 + random.int(`${label}/quality`, 40),
      index: random.uuid(`${label}/index`),
      creationDate: options.now,
    };
  };
  return [...FINGER_SUBTYPES.map((subtype) => bir('Finger', subtype)), ...IRIS_SUBTYPES.map((subtype) => bir('Iris', subtype)), bir('Face', '')];
}

export interface SampleResident {
  seed: string;
  /** the ID schema's demographic fields (buildPacketZip adds the biometrics and document references) */
  identity: Record<string, unknown>;
  documents: PacketDocument[];
  biometrics: BirInput[];
  cbeff: Buffer;
  /** the seed of the resident whose biometrics this one carries */
  duplicateOf?: string;
}

export interface SampleResidentOptions {
  now?: Date;
  /** carry this resident's biometrics (a second registration of the same person under another name) */
  duplicateOf?: SampleResident;
  bdbBytes?: number;
}

const yyyyMMdd = (date: Date) => date.toISOString().slice(0, 10).replace(/-/g, '/');
const asciiLower = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');

/** A resident of the sample country, the same for the same seed. */
export function sampleResident(seed: string, options: SampleResidentOptions = {}): SampleResident {
  const now = options.now ?? new Date();
  const random = new Seeded(`resident\0${seed}`);
  const sex = random.int('sex', 2) === 0 ? 'female' : 'male';
  const given = random.pick('given', sex === 'female' ? FEMALE : MALE);
  const family = random.pick('family', FAMILY);
  const fullName: Multilingual = [`${given[0]} ${family[0]}`, `${given[0]} ${family[0]}`, `${given[1]} ${family[1]}`];
  // An adult of 18 to 80.
  const ageDays = 18 * 366 + random.int('age', 62 * 365);
  const dateOfBirth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - ageDays * 86_400_000);
  const city = random.pick('city', sampleCities());
  const street = random.pick('street', STREETS);
  const number = 1 + random.int('number', 180);
  const flat = 1 + random.int('flat', 40);
  const phone = `${6 + random.int('phone/first', 4)}${String(random.int('phone', 1_000_000_000)).padStart(9, '0')}`;
  const identity: Record<string, unknown> = {
    IDSchemaVersion: sampleIdSchemaVersion(),
    fullName: multilingual(fullName),
    dateOfBirth: yyyyMMdd(dateOfBirth),
    gender: multilingual(GENDERS[sex]),
    residenceStatus: multilingual(random.int('foreigner', 10) === 0 ? FOREIGNER : RESIDENT),
    addressLine1: multilingual([`${number} ${street[0]}`, `${number}, ${street[1]}`, `${number} ${street[2]}`]),
    addressLine2: multilingual([`Apartment ${flat}`, `Appartement ${flat}`, `شقة ${flat}`]),
    region: multilingual(city.region),
    province: multilingual(city.province),
    city: multilingual(city.city),
    postalCode: POSTAL_CODES[city.code] ?? 'NA',
    phone,
    email: `${asciiLower(given[0])}.${asciiLower(family[0])}${random.int('email', 100)}@example.org`,
  };
  const proof = random.pick('proof', ADDRESS_PROOFS);
  const pdf = minimalPdf([proof.title, `Holder: ${fullName[0]}`, `Address: ${number} ${street[0]}, ${city.city[0]}`, `Reference: ${seed}`]);
  const biometrics = options.duplicateOf?.biometrics ?? sampleBiometrics(seed, { bdbBytes: options.bdbBytes, now });
  return {
    seed,
    identity,
    documents: [{ field: 'proofOfAddress', type: proof.type, format: 'pdf', data: pdf }],
    biometrics,
    cbeff: buildCbeff(biometrics, now),
    ...(options.duplicateOf ? { duplicateOf: options.duplicateOf.seed } : {}),
  };
}

/** What a registration client puts in a NEW packet of `resident`, made at `place` by the sample centre's staff; `over` changes any of it. */
export function packetInputOf(
  registrationId: string,
  place: { centre: string; machine: string },
  resident: Pick<SampleResident, 'identity' | 'cbeff' | 'documents'>,
  now: Date,
  over: Partial<PacketInput> = {},
): PacketInput {
  return {
    registrationId,
    registrationType: 'NEW',
    centerId: place.centre,
    machineId: place.machine,
    creationDate: now,
    officerId: 'sample-officer',
    supervisorId: 'sample-supervisor',
    identity: resident.identity,
    cbeff: resident.cbeff,
    documents: resident.documents,
    ...over,
  };
}
