// Identity fixtures with no test-runner import, so that benchmarks use them too.
/** Identities of the sample country's ID schema (PLATFORM_SAMPLE_DATA=true), and the ID repository's calls. */
export const NAME = 'Zaynab Quietwater';
export const ADDRESS_DOCUMENT = Buffer.from('%PDF-1.4 proof of address of the resident, unique text 7c1f');
export const BIOMETRICS = Buffer.from('<BIR><BDBInfo>finger</BDBInfo><BDB>ZmluZ2VycHJpbnQgdGVtcGxhdGUgOWUy</BDB></BIR>');

export function identityOf(uin: string, over: Record<string, unknown> = {}) {
  return {
    IDSchemaVersion: 1,
    UIN: uin,
    fullName: [{ language: 'eng', value: NAME }],
    dateOfBirth: '1990/04/12',
    gender: [{ language: 'eng', value: 'Female' }],
    addressLine1: [{ language: 'eng', value: '12 Lantern Street' }],
    region: [{ language: 'eng', value: 'Rabat Sale Kenitra' }],
    province: [{ language: 'eng', value: 'Kenitra' }],
    city: [{ language: 'eng', value: 'Kenitra' }],
    postalCode: '14000',
    proofOfAddress: { format: 'pdf', type: 'DOC001', value: 'proofOfAddress' },
    individualBiometrics: { format: 'cbeff', version: 1.0, value: 'individualBiometrics' },
    ...over,
  };
}

export const DOCUMENTS = [
  { category: 'proofOfAddress', value: ADDRESS_DOCUMENT.toString('base64') },
  { category: 'individualBiometrics', value: BIOMETRICS.toString('base64') },
];

let ridSequence = 0;
/** A registration id as MOSIP makes them: 29 digits. */
export const newRid = () => `1000110001${String(Date.now()).slice(-9)}${String(ridSequence++).padStart(10, '0')}`;
