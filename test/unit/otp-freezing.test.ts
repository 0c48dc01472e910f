import { beforeEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../lib/errors.js';
import { MasterKey } from '../../lib/master-key.js';
import { ManualClock } from '../../lib/time.js';
import { OtpService, type OtpCaller } from '../../subgraphs/otp/service.js';
import type { OtpSettings } from '../../subgraphs/otp/settings.js';
import type { OtpEntryRow, OtpStore } from '../../subgraphs/otp/storage.js';

/*
 * The OTP rules of otp/service.ts over an in-memory otp_entry: attempts,
 * freezing, thawing, expiry and single use. No database, no HTTP.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');
const SETTINGS: OtpSettings = { length: 6, expirySeconds: 180, attemptThreshold: 3, freezeSeconds: 1800, keyMinLength: 3, keyMaxLength: 64 };
const MASTER_KEY = MasterKey.fromPassphrase('otp unit tests');

/** otp_entry in memory, with the same single-statement semantics as the Prisma storage. */
class MemoryOtpEntries implements OtpStore {
  readonly rows = new Map<string, OtpEntryRow>();

  constructor(private readonly clock: ManualClock) {}

  entry(id: string): Promise<OtpEntryRow | null> {
    const row = this.rows.get(id);
    return Promise.resolve(row ? { ...row } : null);
  }

  saveOtp(id: string, otpHash: string, expiresAt: Date, thaw: boolean): Promise<void> {
    const row = this.rows.get(id);
    const updatedAt = this.clock.now();
    if (!row) this.rows.set(id, { id, otpHash, expiresAt, failedAttempts: 0, frozenUntil: null, updatedAt });
    else Object.assign(row, { otpHash, expiresAt, updatedAt }, thaw ? { failedAttempts: 0, frozenUntil: null } : {});
    return Promise.resolve();
  }

  consume(id: string, otpHash: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (row?.otpHash !== otpHash) return Promise.resolve(false);
    this.rows.delete(id);
    return Promise.resolve(true);
  }

  countFailure(id: string, thawed: boolean): Promise<number> {
    const row = this.required(id);
    Object.assign(row, thawed ? { failedAttempts: 1, frozenUntil: null } : { failedAttempts: row.failedAttempts + 1 });
    return Promise.resolve(row.failedAttempts);
  }

  freeze(id: string, until: Date): Promise<void> {
    Object.assign(this.required(id), { frozenUntil: until, otpHash: null, expiresAt: null });
    return Promise.resolve();
  }

  private required(id: string): OtpEntryRow {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no otp_entry ${id}`);
    return row;
  }
}

let clock: ManualClock;
let store: MemoryOtpEntries;
let otp: OtpService;

/** A wrong OTP of the right length: never the one generated. */
const wrong = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, '0');

beforeEach(() => {
  clock = new ManualClock(NOW);
  store = new MemoryOtpEntries(clock);
  otp = new OtpService(store, MASTER_KEY, clock, SETTINGS);
});

describe('OTP generation and validation', () => {
  it('generates a numeric OTP of the configured length and keeps only a keyed hash of it', async () => {
    const generated = await otp.generate('api', 'officer7');
    expect(generated.status).toBe('GENERATION_SUCCESSFUL');
    expect(generated.otp).toMatch(/^\d{6}$/);
    const [row] = [...store.rows.values()];
    expect(row!.id).not.toContain('officer7');
    expect(row!.otpHash).not.toContain(generated.otp!);
    expect(row!.expiresAt).toEqual(new Date(NOW.getTime() + 180_000));
  });

  it('accepts the OTP once: a second use of the same OTP is not generated', async () => {
    const { otp: code } = await otp.generate('api', 'officer7');
    expect(await otp.check('api', 'officer7', code!)).toBe('VALID');
    expect(await otp.check('api', 'officer7', code!)).toBe('NOT_GENERATED');
  });

  it('keeps namespaces and scopes apart: an OTP of one never validates in another', async () => {
    const { otp: code } = await otp.generate('api', 'officer7', 'client:a');
    expect(await otp.check('login', 'officer7', code!, 'client:a')).toBe('NOT_GENERATED');
    expect(await otp.check('api', 'officer7', code!, 'client:b')).toBe('NOT_GENERATED');
    expect(await otp.check('api', 'officer7', code!, 'client:a')).toBe('VALID');
  });

  it('answers EXPIRED for the right OTP after its validity, and INVALID for a wrong one then', async () => {
    const { otp: code } = await otp.generate('api', 'officer7');
    clock.advance(180_000);
    expect(await otp.check('api', 'officer7', code!)).toBe('EXPIRED');
    expect(await otp.check('api', 'officer7', wrong(code!))).toBe('INVALID');
  });

  it('is still valid a moment before expiry', async () => {
    const { otp: code } = await otp.generate('api', 'officer7');
    clock.advance(179_999);
    expect(await otp.check('api', 'officer7', code!)).toBe('VALID');
  });

  it('replaces the previous OTP when a new one is generated', async () => {
    const first = (await otp.generate('api', 'officer7')).otp!;
    const second = (await otp.generate('api', 'officer7')).otp!;
    if (first !== second) expect(await otp.check('api', 'officer7', first)).toBe('INVALID');
    expect(await otp.check('api', 'officer7', second)).toBe('VALID');
  });
});

describe('OTP freezing', () => {
  it('counts wrong entries up to the threshold, then freezes the key and drops its OTP', async () => {
    const { otp: code } = await otp.generate('api', 'officer7');
    for (let attempt = 1; attempt <= SETTINGS.attemptThreshold; attempt++) expect(await otp.check('api', 'officer7', wrong(code!))).toBe('INVALID');
    expect(await otp.check('api', 'officer7', wrong(code!))).toBe('BLOCKED');
    const [row] = [...store.rows.values()];
    expect(row).toMatchObject({ failedAttempts: SETTINGS.attemptThreshold + 1, otpHash: null, expiresAt: null });
    expect(row!.frozenUntil).toEqual(new Date(NOW.getTime() + SETTINGS.freezeSeconds * 1000));
    // the right OTP no longer helps, and no new one is handed out while frozen
    expect(await otp.check('api', 'officer7', code!)).toBe('BLOCKED');
    expect(await otp.generate('api', 'officer7')).toEqual({ otp: null, status: 'USER_BLOCKED' });
  });

  it('a right entry before the threshold still validates', async () => {
    const { otp: code } = await otp.generate('api', 'officer7');
    for (let attempt = 1; attempt <= SETTINGS.attemptThreshold; attempt++) await otp.check('api', 'officer7', wrong(code!));
    expect(await otp.check('api', 'officer7', code!)).toBe('VALID');
  });

  it('thaws after the freeze: a new OTP is handed out and counting starts again', async () => {
    const { otp: code } = await otp.generate('api', 'officer7');
    for (let attempt = 0; attempt <= SETTINGS.attemptThreshold; attempt++) await otp.check('api', 'officer7', wrong(code!));
    clock.advance(SETTINGS.freezeSeconds * 1000 - 1);
    expect((await otp.generate('api', 'officer7')).status).toBe('USER_BLOCKED');
    clock.advance(1);
    const thawed = await otp.generate('api', 'officer7');
    expect(thawed.status).toBe('GENERATION_SUCCESSFUL');
    expect([...store.rows.values()][0]).toMatchObject({ failedAttempts: 0, frozenUntil: null });
    // a full threshold of wrong entries again before the next freeze
    for (let attempt = 1; attempt <= SETTINGS.attemptThreshold; attempt++) expect(await otp.check('api', 'officer7', wrong(thawed.otp!))).toBe('INVALID');
    expect(await otp.check('api', 'officer7', wrong(thawed.otp!))).toBe('BLOCKED');
  });

  it('keeps the dropped OTP gone after the freeze: only a new one validates', async () => {
    const { otp: code } = await otp.generate('api', 'officer7');
    for (let attempt = 0; attempt <= SETTINGS.attemptThreshold; attempt++) await otp.check('api', 'officer7', wrong(code!));
    clock.advance(SETTINGS.freezeSeconds * 1000);
    // the frozen entry holds no OTP: nothing to validate against
    expect(await otp.check('api', 'officer7', code!)).toBe('NOT_GENERATED');
    const fresh = (await otp.generate('api', 'officer7')).otp!;
    expect(await otp.check('api', 'officer7', fresh)).toBe('VALID');
  });

  it('freezes one key only: another key of the same caller still works', async () => {
    const { otp: code } = await otp.generate('api', 'officer7');
    for (let attempt = 0; attempt <= SETTINGS.attemptThreshold; attempt++) await otp.check('api', 'officer7', wrong(code!));
    const other = await otp.generate('api', 'officer8');
    expect(await otp.check('api', 'officer8', other.otp!)).toBe('VALID');
  });
});

describe('the OTP API for a caller', () => {
  const client: OtpCaller = { subject: 'client-a', subjectType: 'client', appId: 'ida' };
  const user: OtpCaller = { subject: 'someone', subjectType: 'user', appId: 'ida' };

  const rejected = async (work: () => Promise<unknown>) => {
    const error = (await Promise.resolve()
      .then(work)
      .then(
        () => undefined,
        (failure: unknown) => failure,
      )) as PlatformError | undefined;
    expect(error).toBeInstanceOf(PlatformError);
    return { code: error!.code, message: error!.message };
  };

  it('checks the key length on generation (KER-OTG-001) and validation (KER-OTV-001..004, in that order)', async () => {
    expect(await rejected(() => otp.generateForKey(client, 'ab'))).toEqual({ code: 'KER-OTG-001', message: 'Length of key should be in the range of 3-64' });
    expect((await rejected(() => otp.validateForKey(client, '', ''))).code).toBe('KER-OTV-001');
    expect((await rejected(() => otp.validateForKey(client, 'ab', ''))).code).toBe('KER-OTV-002');
    expect((await rejected(() => otp.validateForKey(client, 'abc', ''))).code).toBe('KER-OTV-003');
    expect((await rejected(() => otp.validateForKey(client, 'abc', '12a'))).code).toBe('KER-OTV-004');
    expect((await rejected(() => otp.validateForKey(client, 'abc', '123456'))).code).toBe('KER-OTV-005');
  });

  it("answers MOSIP's statuses: success, unsuccessful, blocked, expired", async () => {
    const code = (await otp.generateForKey(client, 'abc')).otp!;
    expect(await otp.validateForKey(client, 'abc', wrong(code))).toEqual({ status: 'failure', message: 'VALIDATION_UNSUCCESSFUL' });
    expect(await otp.validateForKey(client, 'abc', code)).toEqual({ status: 'success', message: 'VALIDATION_SUCCESSFUL' });
    const again = (await otp.generateForKey(client, 'abc')).otp!;
    clock.advance(SETTINGS.expirySeconds * 1000);
    expect(await otp.validateForKey(client, 'abc', again)).toEqual({ status: 'failure', message: 'OTP_EXPIRED' });
    const last = (await otp.generateForKey(client, 'abc')).otp!;
    for (let attempt = 1; attempt <= SETTINGS.attemptThreshold; attempt++) await otp.validateForKey(client, 'abc', wrong(last));
    expect(await otp.validateForKey(client, 'abc', wrong(last))).toEqual({ status: 'failure', message: 'USER_BLOCKED' });
    expect(await otp.generateForKey(client, 'abc')).toEqual({ otp: null, status: 'USER_BLOCKED' });
  });

  it("keeps a client's OTPs its own: a user of another scope never validates them", async () => {
    const code = (await otp.generateForKey(client, 'abc')).otp!;
    expect((await rejected(() => otp.validateForKey(user, 'abc', code))).code).toBe('KER-OTV-005');
    expect((await rejected(() => otp.validateForKey(null, 'abc', code))).code).toBe('KER-OTV-005');
    expect(await otp.validateForKey(client, 'abc', code)).toEqual({ status: 'success', message: 'VALIDATION_SUCCESSFUL' });
  });
});
