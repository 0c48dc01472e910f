import { X509Certificate } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { generateRsaKeyPair, issueCertificate } from '../../lib/crypto/certificates.js';
import { PlatformError } from '../../lib/errors.js';
import { MasterKey } from '../../lib/master-key.js';
import { ManualClock } from '../../lib/time.js';
import { KeyStore } from '../../subgraphs/keys/key-store.js';
import type { KeyPolicy } from '../../subgraphs/keys/policy.js';
import type { KeyEntry, KeyRows, NewKeyEntry, PairRows } from '../../subgraphs/keys/storage.js';

/*
 * The key store's rules (keys/key-store.ts, upload-certificate.ts) over an
 * in-memory key_store: which key is current, when one is generated, how a
 * rotation retires the keys in force, that rotated keys still open what they
 * sealed, and that racing generations keep one key. No database.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');
const DAY_MS = 86_400_000;
const MASTER_KEY = MasterKey.fromPassphrase('keys unit tests');
const POLICY: KeyPolicy[] = [
  { applicationId: 'ROOT', validityDays: 1826, referenceIds: false, autoGenerate: true, cryptoRoles: [] },
  { applicationId: 'KERNEL', validityDays: 30, referenceIds: true, autoGenerate: true, autoReferenceIds: ['SIGN'], cryptoRoles: [] },
  { applicationId: 'MANUAL', validityDays: 30, referenceIds: false, autoGenerate: false, cryptoRoles: [] },
  { applicationId: 'PARTNER', validityDays: 30, referenceIds: true, autoGenerate: true, cryptoRoles: [] },
];

const isLive = (row: KeyEntry, at: Date) => row.validTo > at && (!row.retiredAt || row.retiredAt > at);
const newestFirst = (a: KeyEntry, b: KeyEntry) => b.validFrom.getTime() - a.validFrom.getTime();

/** key_store in memory: a pair's changes run one after another, as under the advisory lock; every statement counted. */
class MemoryKeyStore implements KeyRows {
  readonly rows: KeyEntry[] = [];
  statements = 0;
  private readonly locks = new Map<string, Promise<unknown>>();

  private readonly pair: PairRows = {
    inForce: (applicationId, referenceId, at) => this.first(applicationId, referenceId, (row) => row.validFrom <= at && isLive(row, at)),
    latest: (applicationId, referenceId, at) => this.first(applicationId, referenceId, (row) => isLive(row, at)),
    retireUnexpired: (applicationId, referenceId, at) => {
      this.statements++;
      for (const row of this.rows) if (row.applicationId === applicationId && row.referenceId === referenceId && isLive(row, at)) row.retiredAt = at;
      return Promise.resolve();
    },
    retire: (id, at) => {
      this.statements++;
      this.rows.find((row) => row.id === id)!.retiredAt = at;
      return Promise.resolve();
    },
    create: (entry: NewKeyEntry) => {
      this.statements++;
      const row: KeyEntry = {
        privateKey: null,
        csr: null,
        signedCertificate: null,
        replacesId: null,
        retiredAt: null,
        createdAt: entry.validFrom,
        ...entry,
        id: `key-${this.rows.length + 1}`,
      };
      this.rows.push(row);
      return Promise.resolve(row);
    },
  };

  private first(applicationId: string, referenceId: string, where: (row: KeyEntry) => boolean): Promise<KeyEntry | null> {
    this.statements++;
    const found = this.rows.filter((row) => row.applicationId === applicationId && row.referenceId === referenceId && where(row)).sort(newestFirst);
    return Promise.resolve(found[0] ?? null);
  }

  inForce(applicationId: string, referenceId: string, at: Date): Promise<KeyEntry | null> {
    return this.pair.inForce(applicationId, referenceId, at);
  }

  latest(applicationId: string, referenceId: string, at: Date): Promise<KeyEntry | null> {
    return this.pair.latest(applicationId, referenceId, at);
  }

  byThumbprint(thumbprint: string): Promise<KeyEntry | null> {
    this.statements++;
    return Promise.resolve(this.rows.find((row) => row.thumbprint === thumbprint) ?? null);
  }

  setCsr(id: string, csr: string): Promise<KeyEntry> {
    this.statements++;
    const row = this.rows.find((stored) => stored.id === id)!;
    row.csr = csr;
    return Promise.resolve(row);
  }

  underPairLock<T>(applicationId: string, referenceId: string, work: (rows: PairRows) => Promise<T>): Promise<T> {
    const key = `${applicationId}\0${referenceId}`;
    const turn = (this.locks.get(key) ?? Promise.resolve()).then(() => work(this.pair));
    this.locks.set(
      key,
      turn.catch(() => undefined),
    );
    return turn;
  }

  of(applicationId: string, referenceId = ''): KeyEntry[] {
    return this.rows.filter((row) => row.applicationId === applicationId && row.referenceId === referenceId);
  }
}

let clock: ManualClock;
let rows: MemoryKeyStore;
let store: KeyStore;
const instance = () => new KeyStore(rows, MASTER_KEY, clock, POLICY);

async function failure(work: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await Promise.resolve()
    .then(work)
    .then(
      () => undefined,
      (failed: unknown) => failed,
    );
  if (!(error instanceof PlatformError)) throw new Error(`expected a PlatformError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

beforeEach(() => {
  clock = new ManualClock(NOW);
  rows = new MemoryKeyStore();
  store = instance();
});

describe('the current key', () => {
  it('is generated on first use where the policy says so: the root first, then the master it signs', async () => {
    const master = await store.current('KERNEL', '');
    const [root] = rows.of('ROOT');
    expect(root).toMatchObject({ kind: 'ROOT', validFrom: NOW, validTo: new Date(NOW.getTime() + 1826 * DAY_MS) });
    expect(master).toMatchObject({ kind: 'MASTER', applicationId: 'KERNEL', referenceId: '', validTo: new Date(NOW.getTime() + 30 * DAY_MS) });
    expect(new X509Certificate(master.certificate).verify(new X509Certificate(root!.certificate).publicKey)).toBe(true);
    // wrapped under the platform master key, never in clear
    expect(master.privateKey).not.toMatch(/PRIVATE KEY/);
  });

  it('generates a base key of an automatic reference, wrapped under its master, and opens it', async () => {
    const base = await store.current('KERNEL', 'SIGN');
    expect(base).toMatchObject({ kind: 'BASE', referenceId: 'SIGN' });
    expect(base.privateKey!.startsWith('env1.')).toBe(true);
    expect((await store.privateKeyOf(base)).asymmetricKeyType).toBe('rsa');
    const [master] = rows.of('KERNEL');
    expect(new X509Certificate(base.certificate).verify(new X509Certificate(master!.certificate).publicKey)).toBe(true);
  });

  it('is not generated where the policy says not: KER-KMS-012 until generateMasterKey', async () => {
    expect(await failure(() => store.current('MANUAL', ''))).toEqual({ code: 'KER-KMS-012', message: 'Key Generation Process is not completed: MANUAL' });
    expect(await failure(() => store.current('KERNEL', 'OTHER'))).toEqual({
      code: 'KER-KMS-012',
      message: 'Key Generation Process is not completed: KERNEL/OTHER',
    });
    const generated = await store.generate('MANUAL', '', undefined, false);
    expect((await store.current('MANUAL', '')).id).toBe(generated.id);
  });

  it('checks the application and reference against the policy', async () => {
    expect((await failure(() => store.current('NOPE', ''))).code).toBe('KER-KMS-002');
    expect((await failure(() => store.current('', ''))).code).toBe('KER-KMS-005');
    expect((await failure(() => store.current('MANUAL', 'REF'))).code).toBe('KER-KMS-010');
    expect((await failure(() => store.current('ROOT', 'REF'))).code).toBe('KER-KMS-010');
  });

  it('is answered from memory for a few seconds: no statement, and another instance’s rotation seen after at most 10 s', async () => {
    const first = await store.current('KERNEL', '');
    const before = rows.statements;
    expect((await store.current('KERNEL', '')).id).toBe(first.id);
    expect(rows.statements).toBe(before);
    const rotated = await instance().generate('KERNEL', '', undefined, true);
    clock.advance(9_999);
    expect((await store.current('KERNEL', '')).id).toBe(first.id);
    clock.advance(1);
    expect((await store.current('KERNEL', '')).id).toBe(rotated.id);
  });

  it('is replaced once it expires: a new key is generated for the pair', async () => {
    const first = await store.current('KERNEL', '');
    clock.advance(30 * DAY_MS);
    const next = await store.current('KERNEL', '');
    expect(next.id).not.toBe(first.id);
    expect(next.validFrom).toEqual(clock.now());
    expect(rows.of('KERNEL')).toHaveLength(2);
  });
});

describe('rotation', () => {
  it('without force keeps the key in force: no second key', async () => {
    const first = await store.generate('KERNEL', '', undefined, false);
    expect((await store.generate('KERNEL', '', undefined, false)).id).toBe(first.id);
    expect(rows.of('KERNEL')).toHaveLength(1);
  });

  it('with force retires every key in force now and puts the new one in force from now', async () => {
    const first = await store.current('KERNEL', '');
    clock.advance(DAY_MS);
    const second = await store.generate('KERNEL', '', { commonName: 'kernel-2' }, true);
    expect(rows.of('KERNEL').find((row) => row.id === first.id)!.retiredAt).toEqual(clock.now());
    expect(second).toMatchObject({ retiredAt: null, validFrom: clock.now() });
    expect((await store.current('KERNEL', '')).id).toBe(second.id);
    expect(new X509Certificate(second.certificate).subject).toContain('CN=kernel-2');
    // the key in force at a past time is the one in force then
    expect((await store.current('KERNEL', '', new Date(NOW.getTime() + 1000))).id).toBe(first.id);
  });

  it('leaves a pair that somehow had several live keys with one', async () => {
    const first = await store.generate('KERNEL', '', undefined, false);
    rows.rows.push({ ...first, id: 'stray', thumbprint: 'stray' });
    const rotated = await store.generate('KERNEL', '', undefined, true);
    expect(
      rows
        .of('KERNEL')
        .filter((row) => isLive(row, clock.now()))
        .map((row) => row.id),
    ).toEqual([rotated.id]);
  });

  it('keeps the rotated key: what it sealed still opens by thumbprint', async () => {
    const first = await store.current('KERNEL', '');
    await store.generate('KERNEL', '', undefined, true);
    const reopened = await instance().privateKeyByThumbprint(Buffer.from(first.thumbprint, 'hex'));
    expect(reopened?.export({ type: 'pkcs8', format: 'pem' })).toEqual((await store.privateKeyOf(first)).export({ type: 'pkcs8', format: 'pem' }));
    expect(await store.privateKeyByThumbprint(Buffer.from('00'.repeat(32), 'hex'))).toBeUndefined();
  });

  it('keeps one key when callers race: in one process they share the generation, across instances the lock decides', async () => {
    await store.current('ROOT', '');
    const sameProcess = await Promise.all([1, 2, 3].map(() => store.generate('KERNEL', '', undefined, false)));
    expect(new Set(sameProcess.map((entry) => entry.id)).size).toBe(1);
    const instances = await Promise.all([1, 2, 3].map(() => instance().generate('PARTNER', '', undefined, false)));
    expect(new Set(instances.map((entry) => entry.id)).size).toBe(1);
    expect(rows.of('PARTNER')).toHaveLength(1);
  });

  it('keeps the CSR with the key in force', async () => {
    const entry = await store.generateCsr('KERNEL', '', { commonName: 'kernel', country: 'IN' });
    expect(entry.csr).toMatch(/BEGIN CERTIFICATE REQUEST/);
    expect(rows.of('KERNEL')[0]!.csr).toBe(entry.csr);
  });
});

describe('certificates', () => {
  it('puts a CA-signed certificate in force for the same key, the old entry retired and still opening', async () => {
    const key = await store.current('KERNEL', '');
    const issuer = await generateRsaKeyPair();
    const pem = (await store.privateKeyOf(key)).export({ type: 'pkcs8', format: 'pem' }).toString();
    const publicKeyPem = new X509Certificate(key.certificate).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const signed = issueCertificate({
      publicKeyPem,
      subject: { commonName: 'kernel by a CA' },
      validFrom: NOW,
      validTo: new Date(NOW.getTime() + 10 * DAY_MS),
      ca: false,
      issuer: {
        certificatePem: issueCertificate({
          publicKeyPem: issuer.publicKey,
          subject: { commonName: 'CA' },
          validFrom: NOW,
          validTo: new Date(NOW.getTime() + 100 * DAY_MS),
          ca: true,
          selfPrivateKeyPem: issuer.privateKey,
        }),
        privateKeyPem: issuer.privateKey,
      },
    });
    clock.advance(1000);
    const uploaded = await store.uploadCertificate('KERNEL', '', signed);
    expect(uploaded).toMatchObject({ replacesId: key.id, kind: 'MASTER', privateKey: key.privateKey, validFrom: clock.now() });
    expect(rows.of('KERNEL').find((row) => row.id === key.id)!.retiredAt).toEqual(clock.now());
    expect((await store.privateKeyOf(uploaded)).export({ type: 'pkcs8', format: 'pem' }).toString()).toBe(pem);
    // the same certificate again changes nothing
    expect((await store.uploadCertificate('KERNEL', '', signed)).id).toBe(uploaded.id);
    // a certificate of another key is refused
    const other = await generateRsaKeyPair();
    const foreign = issueCertificate({
      publicKeyPem: other.publicKey,
      subject: { commonName: 'x' },
      validFrom: NOW,
      validTo: new Date(NOW.getTime() + DAY_MS),
      ca: false,
      selfPrivateKeyPem: other.privateKey,
    });
    expect((await failure(() => store.uploadCertificate('KERNEL', '', foreign))).code).toBe('KER-KMS-013');
  });

  it("lets another domain's certificate take over from the last, never from a key of this platform", async () => {
    const make = async () => {
      const pair = await generateRsaKeyPair();
      return issueCertificate({
        publicKeyPem: pair.publicKey,
        subject: { commonName: 'partner' },
        validFrom: NOW,
        validTo: new Date(NOW.getTime() + 10 * DAY_MS),
        ca: false,
        selfPrivateKeyPem: pair.privateKey,
      });
    };
    const first = await store.uploadOtherDomainCertificate('PARTNER', 'p1', await make());
    clock.advance(1000);
    const second = await store.uploadOtherDomainCertificate('PARTNER', 'p1', await make());
    expect(first).toMatchObject({ kind: 'OTHER_DOMAIN', privateKey: null });
    expect(rows.of('PARTNER', 'p1').find((row) => row.id === first.id)!.retiredAt).toEqual(clock.now());
    expect((await store.find('PARTNER', 'p1', clock.now()))!.id).toBe(second.id);
    expect((await failure(() => store.uploadOtherDomainCertificate('PARTNER', '', 'x'))).code).toBe('KER-KMS-005');
    await store.generate('PARTNER', 'own', undefined, false);
    expect((await failure(async () => store.uploadOtherDomainCertificate('PARTNER', 'own', await make()))).code).toBe('KER-KMS-003');
  });
});
