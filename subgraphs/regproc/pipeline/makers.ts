import { metaLabels } from '../../../lib/packet/format.js';
import type { MachinePlacement } from '../../masterdata/centres/machines.js';
import type { OpenedPacket } from '../packets/packet-files.js';
import { ridTime } from '../registrations/rid.js';
import { sampleDigests, sharesSample, storedDigests } from './biometrics.js';
import { StageRejection, type StageRegistration, type StageTransaction, type TransactionType } from './stages.js';

/** A user as the checks read it (auth's record). */
export interface MakerAccount {
  isLocked: boolean;
  roles: readonly string[];
  /** the RID of the user's own identity, when the user has one (their biometrics are matched against it) */
  rid: string | null;
}

/** What the checks ask of master data, auth and the ID repository. */
export interface MakersPort {
  placement(centreId: string, machineId: string): Promise<MachinePlacement>;
  accounts(userIds: readonly string[]): Promise<Map<string, MakerAccount>>;
  /** whether the user was mapped to the centre at that instant (master data's history of centre users) */
  mappedAt(centreId: string, userId: string, at: Date): Promise<boolean>;
  /** the stored biometrics (CBEFF) of the identity a registration created or updated, or null */
  biometricsOfRegistration(rid: string): Promise<Buffer | null>;
}

/** How far a packet's creationDate may lie from its RID's time: clients stamp local time, up to a day off UTC. */
const CREATION_SKEW_MS = 24 * 3600 * 1000;

const reject = (type: TransactionType, code: string, message: string, passed: StageTransaction[]) =>
  new StageRejection('REJECTED', message, code, type, passed);

/** MOSIP's CMD validation codes (StatusUtil) for what placement answers. */
const PLACEMENT_FAILURES: Readonly<Record<Exclude<MachinePlacement, 'ACTIVE'>, [string, string]>> = {
  UNKNOWN_CENTRE: ['RPR-CMD-FAILED-002', 'the registration centre does not exist'],
  INACTIVE_CENTRE: ['RPR-CMD-FAILED-003', 'the registration centre is not active'],
  UNKNOWN_MACHINE: ['RPR-CMD-FAILED-004', 'the machine does not exist'],
  INACTIVE_MACHINE: ['RPR-CMD-FAILED-005', 'the machine is not active'],
  ELSEWHERE: ['RPR-CMD-FAILED-015', 'the machine does not belong to the registration centre'],
};

/** One person the packet names as its maker, with the role they need and the codes of their stage. */
interface Maker {
  label: 'officer' | 'supervisor';
  type: 'OPERATOR_VALIDATION' | 'SUPERVISOR_VALIDATION';
  roles: readonly string[];
  codes: { missing: string; inactive: string; authentication: string; mapping: string };
}

const OFFICER: Maker = {
  label: 'officer',
  type: 'OPERATOR_VALIDATION',
  // A supervisor registers residents too (MOSIP's client lets either sign in as the operator).
  roles: ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR'],
  codes: { missing: 'RPR-OVM-FAILED-005', inactive: 'RPR-OVM-FAILED-004', authentication: 'RPR-OVM-FAILED-003', mapping: 'RPR-OVM-FAILED-001' },
};

const SUPERVISOR: Maker = {
  label: 'supervisor',
  type: 'SUPERVISOR_VALIDATION',
  roles: ['REGISTRATION_SUPERVISOR'],
  codes: { missing: 'RPR-OVM-FAILED-006', inactive: 'RPR-SVM-FAILED-004', authentication: 'RPR-SVM-FAILED-003', mapping: 'RPR-SVM-FAILED-001' },
};

/**
 * Who made a packet (MOSIP's CMD_VALIDATION, OPERATOR_VALIDATION and
 * SUPERVISOR_VALIDATION, each a transaction): the centre and machine exist,
 * are active and belong together; the packet's creationDate agrees with its
 * RID; the officer and the supervisor are two people who exist, are not
 * locked, hold their roles and were mapped to the packet's centre when it
 * was made; and the packet records how each signed in at the client (a
 * password or an OTP, or biometrics that match their own identity's). The
 * packet names them; the platform's own records decide. The first failure
 * rejects the packet under its stage's transaction type.
 */
export async function checkMakers(
  registration: StageRegistration,
  packet: OpenedPacket,
  port: MakersPort,
  passed: StageTransaction[],
): Promise<StageTransaction[]> {
  const labels = metaLabels(packet.metaInfo);
  const done = [...passed];
  const creation = creationOf(registration, labels.get('creationDate'), done);
  const placement = await port.placement(registration.centreId, registration.machineId);
  if (placement !== 'ACTIVE') {
    const [code, message] = PLACEMENT_FAILURES[placement];
    throw reject('CMD_VALIDATION', code, `${message} (${registration.centreId}_${registration.machineId})`, done);
  }
  done.push({ type: 'CMD_VALIDATION', statusCode: 'SUCCESS', comment: 'centre, machine and creation time checked' });

  const officerId = labels.get('officerId')?.trim() ?? '';
  const supervisorId = labels.get('supervisorId')?.trim() ?? '';
  const accounts = await port.accounts([officerId, supervisorId].filter(Boolean));
  for (const [maker, userId] of [
    [OFFICER, officerId],
    [SUPERVISOR, supervisorId],
  ] as const) {
    if (maker === SUPERVISOR && userId && userId.toLowerCase() === officerId.toLowerCase())
      throw reject(maker.type, maker.codes.inactive, 'the supervisor is the officer: another person approves a registration', done);
    await checkMaker(maker, userId, { registration, packet, labels, creation, port, account: accounts.get(userId) }, done);
    done.push({ type: maker.type, statusCode: 'SUCCESS', comment: `${maker.label} ${userId} checked` });
  }
  return done.slice(passed.length);
}

/** The packet's creationDate: present, an instant, within a day of its RID's time and not after its sync. */
function creationOf(registration: StageRegistration, text: string | undefined, passed: StageTransaction[]): Date {
  const creation = text ? new Date(text) : undefined;
  if (!creation || Number.isNaN(creation.getTime())) throw reject('CMD_VALIDATION', 'RPR-CMD-FAILED-002', 'the packet records no valid creationDate', passed);
  const made = ridTime(registration.rid, new Date(registration.createdAt.getTime() + CREATION_SKEW_MS));
  const agrees =
    made && Math.abs(creation.getTime() - made.getTime()) <= CREATION_SKEW_MS && creation.getTime() <= registration.createdAt.getTime() + CREATION_SKEW_MS;
  if (!agrees) throw reject('CMD_VALIDATION', 'RPR-CMD-FAILED-016', "the packet's creationDate does not agree with its registration id and sync", passed);
  return creation;
}

interface MakerContext {
  registration: StageRegistration;
  packet: OpenedPacket;
  labels: Map<string, string>;
  creation: Date;
  port: MakersPort;
  account: MakerAccount | undefined;
}

async function checkMaker(maker: Maker, userId: string, context: MakerContext, passed: StageTransaction[]): Promise<void> {
  const { codes, label, type } = maker;
  if (!userId) throw reject(type, codes.missing, `${label === 'officer' ? 'Officer' : 'Supervisor'} ID is NULL`, passed);
  const { account, registration } = context;
  if (!account || account.isLocked) throw reject(type, codes.inactive, `the ${label} ${userId} is not an active user`, passed);
  if (!maker.roles.some((role) => account.roles.includes(role)))
    throw reject(type, codes.inactive, `the ${label} ${userId} does not hold the ${maker.roles.join(' or ')} role`, passed);
  if (!(await authenticated(maker, account, context, passed)))
    throw reject(
      type,
      codes.authentication,
      `the packet records no authentication of the ${label} (password, OTP, or biometrics matching their identity)`,
      passed,
    );
  if (!(await context.port.mappedAt(registration.centreId, userId, context.creation)))
    throw reject(type, codes.mapping, `the ${label} ${userId} was not mapped to centre ${registration.centreId} when the packet was made`, passed);
}

/** A password or OTP sign-in the client recorded ("true", as MOSIP reads it), or biometrics in the packet that match the person's identity. */
async function authenticated(maker: Maker, account: MakerAccount, context: MakerContext, passed: StageTransaction[]): Promise<boolean> {
  const { labels, packet, port } = context;
  if (labels.get(`${maker.label}Password`) === 'true' || labels.get(`${maker.label}OTPAuthentication`) === 'true') return true;
  const fileName = labels.get(`${maker.label}BiometricFileName`);
  if (!fileName) return false;
  const base = fileName.replace(/\.xml$/i, '');
  const file = packet.files.get(`${base}.xml`) ?? packet.files.get(base);
  if (!file) throw reject(maker.type, 'RPR-PKV-FAILED-013', `the ${maker.label}'s biometric file ${base} is not in the packet`, passed);
  const probe = sampleDigests(file, `the ${maker.label}'s biometrics`, maker.type);
  if (!probe.length) throw reject(maker.type, 'RPR-PKV-FAILED-013', `the ${maker.label}'s biometric file holds no biometric`, passed);
  // Only a person whose own identity the platform holds can be matched: their word is not enough.
  return !!account.rid && sharesSample(probe, storedDigests(await port.biometricsOfRegistration(account.rid)));
}
