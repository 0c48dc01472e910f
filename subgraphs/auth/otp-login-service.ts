import type { PlatformDeps } from '../../lib/deps.js';
import { lookupHash } from '../../lib/secrets.js';
import type { Port } from '../../lib/port.js';
import { RESIDENT_SUBJECT, type Subject, type TokenService } from '../../lib/tokens.js';
import { NotificationService, type Channel } from '../notify/service.js';
import type { OtpService } from '../otp/service.js';
import { authErrors } from './errors.js';
import { isAppId } from './realms.js';
import { userSubject } from './service.js';
import type { UserRow, UserStore } from './storage/users.js';
import type { LoginThrottle } from './throttle.js';

export interface SendOtpInput {
  userId: string;
  otpChannel: string[];
  useridtype: string;
  appId: string;
  context?: string | null;
  templateVariables?: Record<string, string> | null;
}

export interface OtpLoginInput {
  userId: string;
  otp: string;
  appId: string;
}

const PRE_REGISTRATION = 'preregistration';
const APPLICANT_PURPOSE = 'auth/prereg-applicant-hmac';
/** A resident's contact details, for the OTP of their login. */
export interface ResidentContact {
  identityId: string;
  email: string | null;
  phone: string | null;
  /** their name in the identity's first language, for the message */
  name: string | null;
  /** that language, for the message's template */
  langCode: string | null;
}

/** The residents a UIN or VID names, as the ID repository knows them (it plugs this in: OtpLoginService.residents). */
export interface ResidentDirectory {
  /** whether the number follows the UIN or the VID rules */
  idTypeOf(number: string): string | undefined;
  /** the number's look-up key (its HMAC): OTPs and throttles are keyed by it, never by the number */
  keyOf(number: string): string;
  /** the ACTIVATED identity the number names, with how it was named */
  find(number: string): Promise<{ identity: { id: string } } | undefined>;
  contact(number: string): Promise<ResidentContact | undefined>;
}

/** The realm residents sign in to by UIN or VID (MOSIP's resident services). */
const RESIDENT = 'resident';
const CHANNELS: Record<string, Channel> = { email: 'email', phone: 'sms', mobile: 'sms', sms: 'sms' };
const PHONE = /^\+?\d{6,15}$/;

/** Who a login OTP goes to: a user of the store, or a resident found in the ID repository. */
type Recipient = { user: UserRow | null; resident?: undefined } | { user?: undefined; resident: ResidentContact };

/**
 * OTP login: sendotp sends a login OTP to the user's address, useridOTP
 * exchanges it for a token. Login OTPs live in their own namespace.
 * Pre-registration users are their e-mail address or mobile number and are
 * created on their first successful login, as MOSIP's pre-registration does.
 * Residents (`useridtype` UIN, realm `resident`) name themselves by UIN or
 * VID: the ID repository gives their identity's e-mail and phone, and their
 * token speaks for the identity by its opaque id.
 */
export class OtpLoginService {
  private readonly tokens: TokenService;
  private readonly otp: OtpService;
  private readonly notifications: NotificationService;
  /** keys an applicant's user row: the row names them by this HMAC, never by their e-mail or phone */
  private readonly applicantKey: Buffer;

  constructor(
    deps: PlatformDeps,
    private readonly throttle: LoginThrottle,
    /** the users' table: logins by OTP read it, and pre-registration applicants are added to it */
    private readonly users: Pick<UserStore, 'byId' | 'findOrCreate'>,
    /** the residents a UIN or VID names: the ID repository's, which uses auth, plugs it in */
    private readonly residents: Port<ResidentDirectory>,
  ) {
    this.tokens = deps.tokens;
    this.otp = deps.services.otp;
    this.notifications = deps.services.notify;
    this.applicantKey = deps.masterKey.derive(APPLICANT_PURPOSE);
  }

  /**
   * The OTP and throttle key of a login. A resident's number is keyed by its
   * look-up HMAC ('#' never occurs in a user id), so no row holds it in clear.
   */
  private key(appId: string, userId: string, resident: boolean) {
    return resident ? `${appId}:#${this.residents.get().keyOf(userId)}` : `${appId}:${userId.trim().toLowerCase()}`;
  }

  /** A resident's login: the resident realm, and a user id that follows the UIN or VID rules. */
  private isResidentLogin(appId: string, userId: string): boolean {
    return appId === RESIDENT && this.residents.get().idTypeOf(userId) !== undefined;
  }

  private parseChannels(requested: string[]): Channel[] {
    if (!requested.length) throw authErrors.channelInvalid('(none)');
    return [
      ...new Set(
        requested.map((name) => {
          const channel = CHANNELS[name.trim().toLowerCase()];
          if (!channel) throw authErrors.channelInvalid(name);
          return channel;
        }),
      ),
    ];
  }

  /** Where each channel's OTP goes: the user's own addresses, the pre-registration user id itself, or the resident's identity's. */
  private async recipients(input: SendOtpInput, channels: Channel[], resident: boolean): Promise<Recipient & { addresses: [Channel, string][] }> {
    const userId = input.userId.trim();
    if (input.appId === PRE_REGISTRATION) {
      if (channels.length > 1) throw authErrors.multipleChannels();
      const channel = channels[0]!;
      const fits = channel === 'email' ? NotificationService.isEmail(userId) : PHONE.test(userId);
      if (!fits) throw authErrors.channelPathNotFound(channel === 'email' ? 'email' : 'phone');
      const user = await this.users.byId(applicantUserId(this.applicantKey, userId));
      return { user, addresses: [[channel, userId]] };
    }
    if (resident) {
      const contact = await this.residents.get().contact(userId);
      if (!contact) throw authErrors.userNotFound();
      return { resident: contact, addresses: channels.map((channel) => addressOf(channel, contact.email, contact.phone)) };
    }
    const user = await this.users.byId(userId);
    if (!user || user.isLocked || !user.appIds.includes(input.appId)) throw authErrors.userNotFound();
    return { user, addresses: channels.map((channel) => addressOf(channel, user.mail, user.mobile)) };
  }

  /**
   * `useridtype` USERID names a user of the store; UIN names a resident by UIN
   * or VID, in the resident realm only (MOSIP resolves it through the ID
   * repository). Anything else is a user not found.
   */
  private isResidentSend(input: SendOtpInput): boolean {
    const idType = input.useridtype.trim().toUpperCase();
    if (!input.userId.trim()) throw authErrors.userNotFound();
    if (idType === 'USERID') return false;
    if (idType !== 'UIN' || !this.isResidentLogin(input.appId, input.userId)) throw authErrors.userNotFound();
    return true;
  }

  async sendOtp(input: SendOtpInput, clientAddress: string): Promise<{ status: string; message: string }> {
    if (!isAppId(input.appId)) throw authErrors.unknownRealm(input.appId);
    const channels = this.parseChannels(input.otpChannel);
    const resident = this.isResidentSend(input);
    // Counted before any look-up: past the limit every answer is the same, so sendotp cannot list accounts.
    const key = this.key(input.appId, input.userId, resident);
    if (!(await this.throttle.reserve(`otp-send:${key}`, clientAddress))) throw authErrors.sendThrottled();
    const recipient = await this.recipients(input, channels, resident);
    const generated = await this.otp.generate('login', key);
    if (!generated.otp) throw authErrors.otpFrozen();
    const variables: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.templateVariables ?? {})) if (/^\w{1,40}$/.test(name)) variables[name] = String(value);
    const { name, langCode } = recipient.resident ?? recipient.user ?? {};
    Object.assign(variables, {
      otp: generated.otp,
      // A resident's number is never written into a message: their name, or "resident".
      user: name ?? (resident ? 'resident' : input.userId.trim()),
      validMinutes: String(Math.max(1, Math.round(this.otp.settings.expirySeconds / 60))),
    });
    const template = input.context === 'auth-login-otp' ? 'auth-login-otp' : 'auth-otp';
    for (const [channel, address] of recipient.addresses) {
      await this.notifications.sendTemplate(channel, address, template, langCode ?? 'eng', variables);
    }
    return { status: 'success', message: 'OTP has been sent successfully' };
  }

  async loginWithOtp(input: OtpLoginInput, clientAddress: string) {
    if (!isAppId(input.appId)) throw authErrors.unknownRealm(input.appId);
    const userId = input.userId.trim();
    if (!userId) throw authErrors.missingUser();
    const resident = this.isResidentLogin(input.appId, userId);
    const key = this.key(input.appId, userId, resident);
    if (!(await this.throttle.reserve(`otp-login:${key}`, clientAddress))) throw authErrors.otpThrottled();
    // A resident no longer named by the number (blocked, VID revoked) is refused before the OTP is spent.
    const residentSubject = resident ? await this.residentSubject(userId) : undefined;
    const result = /^\d+$/.test(input.otp) ? await this.otp.check('login', key, input.otp) : 'INVALID';
    if (result === 'VALID') await this.throttle.succeeded(`otp-login:${key}`);
    if (result === 'EXPIRED') throw authErrors.expiredOtp();
    if (result === 'BLOCKED') throw authErrors.otpFrozen();
    if (result === 'NOT_GENERATED') throw authErrors.otpNotGenerated();
    if (result !== 'VALID') throw authErrors.invalidOtp();
    const subject = residentSubject ?? (await this.userSubject(input.appId, userId));
    const issued = await this.tokens.issue(subject, { clientAddress });
    // A resident's answer names the number they gave; their token, the identity.
    return {
      token: issued.token,
      refreshToken: issued.refreshToken ?? null,
      expiryTime: issued.expiresIn,
      refreshExpiryTime: issued.refreshExpiresIn ?? null,
      userId: resident ? userId : subject.id,
      status: 'success',
      message: 'OTP validated successfully',
    };
  }

  private async userSubject(appId: string, userId: string): Promise<Subject> {
    if (appId === PRE_REGISTRATION) return this.applicantSubject(userId);
    const user = await this.users.byId(userId);
    if (!user || user.isLocked || !user.appIds.includes(appId)) throw authErrors.userNotFound();
    return userSubject(user, appId);
  }

  /** The resident's identity, still ACTIVATED and still named by the number (a VID revoked since the OTP was sent no longer is). */
  private async residentSubject(number: string): Promise<Subject> {
    const found = await this.residents.get().find(number);
    if (!found) throw authErrors.userNotFound();
    return { id: found.identity.id, type: RESIDENT_SUBJECT, appId: RESIDENT, roles: ['RESIDENT'] };
  }

  /**
   * The pre-registration applicant: found, or created on first login with role
   * INDIVIDUAL. The row is keyed by an HMAC of their contact and holds no
   * address: a dump of the users' table names no applicant. The address they
   * signed in with rides in their token only (its profile), as the OTP went there.
   */
  private async applicantSubject(userId: string): Promise<Subject> {
    const contact = userId.toLowerCase();
    const user = await this.users.findOrCreate({ userId: applicantUserId(this.applicantKey, contact), roles: ['INDIVIDUAL'], appIds: [PRE_REGISTRATION] });
    if (user.isLocked || !user.appIds.includes(PRE_REGISTRATION)) throw authErrors.userNotFound();
    const subject = userSubject(user, PRE_REGISTRATION);
    const address = NotificationService.isEmail(contact) ? { mail: contact, mobile: null } : { mail: null, mobile: contact };
    return { ...subject, profile: { ...subject.profile, ...address } };
  }
}

/** An applicant's user id: `prereg-` and the HMAC of the address they sign in with (lower case). */
export const applicantUserId = (key: Buffer, contact: string): string => `prereg-${lookupHash(key, contact.toLowerCase()).slice(0, 40)}`;

/** A channel's address, AUTH_ERR_CHANNELPATH_NOT_FOUND when none is registered. */
function addressOf(channel: Channel, mail: string | null, mobile: string | null): [Channel, string] {
  const address = channel === 'email' ? mail : mobile;
  if (!address) throw authErrors.channelPathNotFound(channel === 'email' ? 'email' : 'phone');
  return [channel, address];
}
