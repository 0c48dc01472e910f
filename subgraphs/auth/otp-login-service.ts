import type { PrismaClient, User } from '../../generated/prisma/client.js';
import type { PlatformDeps } from '../../lib/deps.js';
import type { TokenService } from '../../lib/tokens.js';
import { NotificationService, type Channel } from '../notify/service.js';
import type { OtpService } from '../otp/service.js';
import { authErrors } from './errors.js';
import { isAppId } from './realms.js';
import { userSubject } from './service.js';
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
const CHANNELS: Record<string, Channel> = { email: 'email', phone: 'sms', mobile: 'sms', sms: 'sms' };
const PHONE = /^\+?\d{6,15}$/;

/**
 * OTP login: sendotp sends a login OTP to the user's address, useridOTP
 * exchanges it for a token. Login OTPs live in their own namespace.
 * Pre-registration users are their e-mail address or mobile number and are
 * created on their first successful login, as MOSIP's pre-registration does.
 */
export class OtpLoginService {
  private readonly prisma: PrismaClient;
  private readonly tokens: TokenService;
  private readonly otp: OtpService;
  private readonly notifications: NotificationService;

  constructor(
    deps: PlatformDeps,
    private readonly throttle: LoginThrottle,
  ) {
    this.prisma = deps.prisma;
    this.tokens = deps.tokens;
    this.otp = deps.services.otp;
    this.notifications = deps.services.notify;
  }

  private static key(appId: string, userId: string) {
    return `${appId}:${userId.trim().toLowerCase()}`;
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

  /** Where each channel's OTP goes: the user's own addresses, or the pre-registration user id itself. */
  private async recipients(input: SendOtpInput, channels: Channel[]): Promise<{ user: User | null; addresses: [Channel, string][] }> {
    const userId = input.userId.trim();
    if (input.appId === PRE_REGISTRATION) {
      if (channels.length > 1) throw authErrors.multipleChannels();
      const channel = channels[0]!;
      const fits = channel === 'email' ? NotificationService.isEmail(userId) : PHONE.test(userId);
      if (!fits) throw authErrors.channelPathNotFound(channel === 'email' ? 'email' : 'phone');
      const user = await this.prisma.user.findUnique({ where: { userId: userId.toLowerCase() } });
      return { user, addresses: [[channel, userId]] };
    }
    const user = await this.prisma.user.findUnique({ where: { userId } });
    if (!user || user.isLocked || !user.appIds.includes(input.appId)) throw authErrors.userNotFound();
    const addresses = channels.map((channel): [Channel, string] => {
      const address = channel === 'email' ? user.mail : user.mobile;
      if (!address) throw authErrors.channelPathNotFound(channel === 'email' ? 'email' : 'phone');
      return [channel, address];
    });
    return { user, addresses };
  }

  async sendOtp(input: SendOtpInput, clientAddress: string): Promise<{ status: string; message: string }> {
    if (!isAppId(input.appId)) throw authErrors.unknownRealm(input.appId);
    const channels = this.parseChannels(input.otpChannel);
    const idType = input.useridtype.trim().toUpperCase();
    if (idType === 'UIN') throw authErrors.uinNotResolvable();
    if (idType !== 'USERID' || !input.userId.trim()) throw authErrors.userNotFound();
    // Counted before any look-up: past the limit every answer is the same, so sendotp cannot list accounts.
    const key = OtpLoginService.key(input.appId, input.userId);
    if (!(await this.throttle.reserve(`otp-send:${key}`, clientAddress))) throw authErrors.sendThrottled();
    const { user, addresses } = await this.recipients(input, channels);
    const generated = await this.otp.generate('login', key);
    if (!generated.otp) throw authErrors.otpFrozen();
    const variables: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.templateVariables ?? {})) if (/^\w{1,40}$/.test(name)) variables[name] = String(value);
    Object.assign(variables, {
      otp: generated.otp,
      user: user?.name ?? input.userId.trim(),
      validMinutes: String(Math.max(1, Math.round(this.otp.settings.expirySeconds / 60))),
    });
    const template = input.context === 'auth-login-otp' ? 'auth-login-otp' : 'auth-otp';
    for (const [channel, address] of addresses) {
      await this.notifications.sendTemplate(channel, address, template, user?.langCode ?? 'eng', variables);
    }
    return { status: 'success', message: 'OTP has been sent successfully' };
  }

  async loginWithOtp(input: OtpLoginInput, clientAddress: string) {
    if (!isAppId(input.appId)) throw authErrors.unknownRealm(input.appId);
    const userId = input.userId.trim();
    if (!userId) throw authErrors.missingUser();
    const key = OtpLoginService.key(input.appId, userId);
    if (!(await this.throttle.reserve(`otp-login:${key}`, clientAddress))) throw authErrors.otpThrottled();
    const result = /^\d+$/.test(input.otp) ? await this.otp.check('login', key, input.otp) : 'INVALID';
    if (result === 'VALID') await this.throttle.succeeded(`otp-login:${key}`);
    if (result === 'EXPIRED') throw authErrors.expiredOtp();
    if (result === 'BLOCKED') throw authErrors.otpFrozen();
    if (result !== 'VALID') throw authErrors.invalidOtp();
    const user = input.appId === PRE_REGISTRATION ? await this.preRegistrationUser(userId) : await this.prisma.user.findUnique({ where: { userId } });
    if (!user || user.isLocked || !user.appIds.includes(input.appId)) throw authErrors.userNotFound();
    const issued = await this.tokens.issue(userSubject(user, input.appId), { clientAddress });
    return { token: issued.token, expiryTime: issued.expiresIn, userId: user.userId, status: 'success', message: 'OTP validated successfully' };
  }

  /** The pre-registration applicant: found, or created on first login with role INDIVIDUAL. */
  private preRegistrationUser(userId: string): Promise<User> {
    const id = userId.toLowerCase();
    const contact = NotificationService.isEmail(id) ? { mail: id } : { mobile: id };
    return this.prisma.user.upsert({
      where: { userId: id },
      create: { userId: id, ...contact, roles: ['INDIVIDUAL'], appIds: [PRE_REGISTRATION] },
      update: {},
    });
  }
}
