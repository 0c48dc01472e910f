import path from 'node:path';

/** Every environment variable the platform reads, in one place (README documents each). */
export interface PlatformConfig {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  stompUrl: string | undefined;
  stompLogin: string | undefined;
  stompPasscode: string | undefined;
  adminPassword: string | undefined;
  adminClientSecret: string | undefined;
  masterKey: string | undefined;
  specOpenEndpoints: boolean;
  throttleAccount: number;
  throttleAddress: number;
  tokenLifeSeconds: number;
  refreshTokenLifeSeconds: number;
  tokenIssuer: string;
  maxBodyBytes: number;
  subgraphUrls: Record<string, string>;
  shutdownGraceMs: number;
  /** Express `trust proxy`: whose X-Forwarded-For names the client address */
  trustProxy: string;
  /** PLATFORM_KEY_POLICY: JSON replacing the key policy, or undefined for MOSIP's */
  keyPolicyJson: string | undefined;
  graphql: GraphqlLimits;
  otp: OtpSettings;
  notify: NotifySettings;
  license: LicenseSettings;
}

export interface LicenseSettings {
  keyLength: number;
  /** the accepted permission values */
  permissions: string[];
}

/** MOSIP's TSP license permissions. */
const DEFAULT_LICENSE_PERMISSIONS = 'OTP Trigger,OTP Authentication,Demo Authentication,Biometric Authentication - FMR,Biometric Authentication - IIR,Biometric Authentication - FID,Static Pin Authentication,eKYC';

/** Limits that refuse a hostile GraphQL document before anything runs (0 turns one off). */
export interface GraphqlLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxCost: number;
  maxDirectives: number;
  /** `public`: introspection without a token; else it needs a valid token */
  introspection: 'public' | 'authenticated';
}

/** The spec's platform.kernel.otp.* keys, from PLATFORM_OTP_* variables (MOSIP's defaults). */
export interface OtpSettings {
  length: number;
  expirySeconds: number;
  attemptThreshold: number;
  freezeSeconds: number;
  keyMinLength: number;
  keyMaxLength: number;
}

export interface NotifySettings {
  smtpUrl: string | undefined;
  mailFrom: string;
  smsGatewayUrl: string | undefined;
  /** platform.kernel.sms.number.length */
  smsNumberLength: number;
  maxAttempts: number;
  retryBaseSeconds: number;
  /** how often (real time) due retries are looked for, and expired outbox bodies dropped */
  retrySweepMs: number;
  /** how long an undelivered (outbox) message keeps its body */
  outboxRetentionHours: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function subgraphUrls(env: NodeJS.ProcessEnv): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const match = /^SUBGRAPH_([A-Z0-9]+)_URL$/.exec(key);
    if (match?.[1] && value) urls[match[1].toLowerCase()] = value;
  }
  return urls;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  return {
    port: int(env, 'PORT', 8080),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.PLATFORM_DATA_DIR || './data'),
    stompUrl: env.STOMP_URL || undefined,
    stompLogin: env.STOMP_LOGIN || undefined,
    stompPasscode: env.STOMP_PASSCODE || undefined,
    adminPassword: env.PLATFORM_ADMIN_PASSWORD || undefined,
    adminClientSecret: env.PLATFORM_ADMIN_CLIENT_SECRET || undefined,
    masterKey: env.PLATFORM_MASTER_KEY || undefined,
    specOpenEndpoints: env.PLATFORM_SPEC_OPEN_ENDPOINTS === 'true',
    throttleAccount: int(env, 'PLATFORM_THROTTLE_ACCOUNT', 10),
    throttleAddress: int(env, 'PLATFORM_THROTTLE_ADDRESS', 120),
    tokenLifeSeconds: int(env, 'PLATFORM_TOKEN_LIFE_SECONDS', 3600),
    refreshTokenLifeSeconds: int(env, 'PLATFORM_REFRESH_TOKEN_LIFE_SECONDS', 86400),
    tokenIssuer: env.PLATFORM_TOKEN_ISSUER || 'identity-platform',
    maxBodyBytes: int(env, 'PLATFORM_MAX_BODY_BYTES', 1024 * 1024),
    subgraphUrls: subgraphUrls(env),
    shutdownGraceMs: int(env, 'PLATFORM_SHUTDOWN_GRACE_MS', 10000),
    trustProxy: env.PLATFORM_TRUST_PROXY || 'loopback',
    keyPolicyJson: env.PLATFORM_KEY_POLICY || undefined,
    graphql: {
      maxDepth: int(env, 'PLATFORM_GRAPHQL_MAX_DEPTH', 10),
      maxAliases: int(env, 'PLATFORM_GRAPHQL_MAX_ALIASES', 15),
      maxTokens: int(env, 'PLATFORM_GRAPHQL_MAX_TOKENS', 2000),
      maxCost: int(env, 'PLATFORM_GRAPHQL_MAX_COST', 5000),
      maxDirectives: int(env, 'PLATFORM_GRAPHQL_MAX_DIRECTIVES', 20),
      introspection: env.PLATFORM_GRAPHQL_INTROSPECTION === 'public' ? 'public' : 'authenticated',
    },
    otp: {
      length: int(env, 'PLATFORM_OTP_LENGTH', 6),
      expirySeconds: int(env, 'PLATFORM_OTP_EXPIRY_SECONDS', 180),
      attemptThreshold: int(env, 'PLATFORM_OTP_ATTEMPT_THRESHOLD', 10),
      freezeSeconds: int(env, 'PLATFORM_OTP_FREEZE_SECONDS', 1800),
      keyMinLength: 3,
      keyMaxLength: 64,
    },
    notify: {
      smtpUrl: env.SMTP_URL || undefined,
      mailFrom: env.MAIL_FROM || 'identity-platform@localhost',
      smsGatewayUrl: env.SMS_GATEWAY_URL || undefined,
      smsNumberLength: int(env, 'PLATFORM_SMS_NUMBER_LENGTH', 10),
      maxAttempts: int(env, 'PLATFORM_NOTIFY_MAX_ATTEMPTS', 5),
      retryBaseSeconds: int(env, 'PLATFORM_NOTIFY_RETRY_SECONDS', 30),
      retrySweepMs: int(env, 'PLATFORM_NOTIFY_SWEEP_MS', 5000),
      outboxRetentionHours: int(env, 'PLATFORM_OUTBOX_RETENTION_HOURS', 24),
    },
    license: {
      keyLength: int(env, 'PLATFORM_LICENSE_KEY_LENGTH', 16),
      permissions: (env.PLATFORM_LICENSE_PERMISSIONS || DEFAULT_LICENSE_PERMISSIONS).split(',').map((p) => p.trim()).filter(Boolean),
    },
  };
}
