import path from 'node:path';
import { read, readSettings, setting, type SettingValues } from './settings.js';

/**
 * The platform core's environment variables; each component declares its own
 * beside its code (subgraphs/<name>/settings.ts), and the configuration page's table (docs/configuration.md) is
 * generated from all of them (`npm run docs`).
 */
export const CORE_SETTINGS = {
  port: setting('PORT', read.integer(0, 65535), '8080', 'HTTP port of the gateway and REST layer'),
  databaseUrl: setting(
    'DATABASE_URL',
    read.optionalUrl('postgresql', 'postgres'),
    undefined,
    '`postgresql://…` uses that PostgreSQL server; unset uses embedded PGlite in `PLATFORM_DATA_DIR/pglite`',
  ),
  dataDir: setting(
    'PLATFORM_DATA_DIR',
    read.text().transform((dir) => path.resolve(dir)),
    './data',
    'embedded database, development master key, bootstrap credentials, files',
  ),
  objectStoreUrl: setting(
    'OBJECT_STORE_URL',
    read.optionalUrl('s3', 's3s'),
    undefined,
    'S3-compatible store for packets, documents and biometrics (`s3://key:secret@host:port/bucket`, `s3s://` for TLS); unset: files under `PLATFORM_DATA_DIR/objects`',
  ),
  stompUrl: setting(
    'STOMP_URL',
    read.optionalUrl('stomp'),
    undefined,
    '`stomp://host:61613` (ActiveMQ); unset: ABIS traffic is not sent and `/health` reports the queue `DISABLED`',
  ),
  globalConfigFile: setting(
    'PLATFORM_SYNC_GLOBAL_CONFIG',
    read.optionalText(),
    undefined,
    "the platform's global configuration: the UIN, VID, RID and contact rules every component reads, served by `GET /v1/syncdata/configs` as `globalConfiguration`; a `.properties` or JSON file holding every key of the spec, read once at start",
    '`config/syncdata/global.properties` (in the repository)',
  ),
  stompLogin: setting('STOMP_LOGIN', read.optionalText(), undefined, 'broker login'),
  stompPasscode: setting('STOMP_PASSCODE', read.optionalText(), undefined, 'broker passcode'),
  adminPassword: setting(
    'PLATFORM_ADMIN_PASSWORD',
    read.optionalText(),
    undefined,
    'if set and no user `admin` exists: creates `admin` with every role and every `appId`',
  ),
  adminClientSecret: setting(
    'PLATFORM_ADMIN_CLIENT_SECRET',
    read.optionalText(),
    undefined,
    'if set and no client `admin-client` exists: creates it with every role and every `appId` (use ≥ 32 random characters)',
  ),
  masterKey: setting(
    'PLATFORM_MASTER_KEY',
    read.optionalText(),
    undefined,
    'passphrase protecting private keys and secrets at rest; unset in development: generated once into `PLATFORM_DATA_DIR/master-key` with a warning',
  ),
  specOpenEndpoints: setting(
    'PLATFORM_SPEC_OPEN_ENDPOINTS',
    read.flag(),
    'false',
    '`true` opens the key-material and OTP endpoints exactly as the spec flags them (for deployments that guard them at the network edge; docs/security.md)',
  ),
  tokenLifeSeconds: setting('PLATFORM_TOKEN_LIFE_SECONDS', read.integer(1), '3600', 'access token life (`expiryTime`, cookie `Max-Age`)'),
  refreshTokenLifeSeconds: setting('PLATFORM_REFRESH_TOKEN_LIFE_SECONDS', read.integer(1), '86400', 'refresh token life'),
  tokenIssuer: setting('PLATFORM_TOKEN_ISSUER', read.text(), 'identity-platform', "the tokens' `iss`"),
  uploadMaxBytes: setting(
    'PLATFORM_UPLOAD_MAX_BYTES',
    read.integer(1024),
    '104857600',
    'largest registration packet upload; streamed to `PLATFORM_DATA_DIR/spool`, never held in memory (larger: `RPR-PKR-002`)',
  ),
  maxBodyBytes: setting('PLATFORM_MAX_BODY_BYTES', read.integer(1024), '1048576', 'largest accepted JSON request body'),
  shutdownGraceMs: setting('PLATFORM_SHUTDOWN_GRACE_MS', read.integer(), '10000', 'how long SIGTERM waits for in-flight requests before cutting them'),
  trustProxy: setting(
    'PLATFORM_TRUST_PROXY',
    read.text(),
    'loopback',
    "Express `trust proxy`: which proxies' `X-Forwarded-For` names the client address (throttling)",
  ),
  logFormat: setting(
    'LOG_FORMAT',
    read.oneOf(['auto', 'json', 'pretty']),
    'auto',
    '`json`: one JSON object per line (for collectors); `pretty`: readable lines; `auto`: pretty when standard output is a terminal, else JSON',
  ),
  instanceId: setting(
    'PLATFORM_INSTANCE_ID',
    read.optionalText(),
    undefined,
    'the name every log line and metric of this process carries, to tell instances and workers apart',
    'host name and process id',
  ),
  metrics: setting('PLATFORM_METRICS', read.flag(), 'true', '`false` turns `/metrics` (Prometheus text format) off'),
  corsOrigins: setting(
    'PLATFORM_CORS_ORIGINS',
    read.list().refine((origins) => origins.every((origin) => /^https?:\/\/[^/?#\s]+$/.test(origin)), {
      message: 'each must be an origin: scheme, host and port only (https://portal.example.gov)',
    }),
    '',
    'origins (comma-separated, exact: `https://admin.example.gov`) whose browser pages may call the platform with credentials (CORS); none by default: a portal is served from the same origin, or listed here',
  ),
  metricsToken: setting(
    'PLATFORM_METRICS_TOKEN',
    read.optionalText(),
    undefined,
    "set: `/metrics` answers only a scrape with `Authorization: Bearer <this>` (Prometheus' `authorization` setting), others 401; unset: open, for a scraper on the internal network",
  ),
  otlpEndpoint: setting(
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    read.optionalUrl('http', 'https'),
    undefined,
    'an OpenTelemetry collector (OTLP over HTTP, `/v1/traces` is added): set, every process sends its traces there, one request joined across the gateway, subgraph services and workers; `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,…`) adds headers to each export; unset: no traces',
  ),
  otelServiceName: setting(
    'OTEL_SERVICE_NAME',
    read.optionalText(),
    undefined,
    "the traces' `service.name`",
    "the process's role: `platform`, `worker` or `subgraph`",
  ),
  logLevel: setting('LOG_LEVEL', read.oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info', 'pino level (`silent` in tests)'),
  publicUrl: setting(
    'PLATFORM_PUBLIC_URL',
    read.optionalUrl('http', 'https'),
    undefined,
    'the address callers reach the platform at (data share URLs, entity links)',
  ),
};

/** Limits that refuse a hostile GraphQL document before anything runs; 0 turns one off. */
export const GRAPHQL_SETTINGS = {
  maxDepth: setting(
    'PLATFORM_GRAPHQL_MAX_DEPTH',
    read.integer(),
    '10',
    'deepest selection a GraphQL document may have (fragments counted through; introspection exempt); `0` turns it off',
  ),
  maxAliases: setting('PLATFORM_GRAPHQL_MAX_ALIASES', read.integer(), '15', 'aliases per GraphQL document; `0` turns it off'),
  maxTokens: setting('PLATFORM_GRAPHQL_MAX_TOKENS', read.integer(), '2000', 'lexical tokens per GraphQL document, checked while parsing; `0` turns it off'),
  // About 50,000 objects at worst: a whole list at its 10,000-row cap with a few fields fits; lists multiplied inside lists do not.
  maxCost: setting(
    'PLATFORM_GRAPHQL_MAX_COST',
    read.integer(),
    '50000',
    'cost of a GraphQL operation with its variables: each object 1, each scalar 0.25, times the rows of every list around it. A list with a page argument (`first`, `last`, `pageSize`, `limit`), or inside a connection or page that has one, counts that many rows (the schema default, else 20, when absent); any other list counts its declared `@listSize(assumedSize)`, the most its service returns (10,000 for a whole master-data list). Operations the REST layer registers are exempt when it runs them in-process; `0` turns it off',
  ),
  maxDirectives: setting('PLATFORM_GRAPHQL_MAX_DIRECTIVES', read.integer(), '20', 'directives per GraphQL document; `0` turns it off'),
  explorer: setting(
    'PLATFORM_GRAPHQL_EXPLORER',
    read.flag(),
    'true',
    '`true` serves GraphiQL (from the platform itself, nothing fetched from another host) to a browser at `GET /graphql`; `false` turns it off',
  ),
  introspection: setting(
    'PLATFORM_GRAPHQL_INTROSPECTION',
    read.oneOf(['authenticated', 'public']),
    'authenticated',
    '`public` answers introspection without a token; otherwise it needs a valid token (any role)',
  ),
};

/** The job runner of `npm start` and `npm run worker`. */
export const JOBS_SETTINGS = {
  run: setting(
    'JOBS_RUN',
    read.flag(),
    'true',
    '`false`: `npm start` enqueues jobs but runs none (run `npm run worker` processes beside it, on the same PostgreSQL); the embedded database needs `true`',
  ),
  concurrency: setting('JOBS_CONCURRENCY', read.integer(1, 256), '4', 'jobs one process runs at once'),
  pollMs: setting(
    'JOBS_POLL_MS',
    read.integer(10),
    '1000',
    'how often due jobs (retries, jobs whose worker died) are looked for; new jobs start at once (NOTIFY)',
  ),
  retentionHours: setting('JOBS_RETENTION_HOURS', read.integer(0), '24', 'how long finished jobs are kept; dead ones stay until an operator removes them'),
  shutdownGraceMs: setting(
    'JOBS_SHUTDOWN_GRACE_MS',
    read.integer(),
    '10000',
    'how long a stop waits for running jobs; those still running run again after their lease',
  ),
};

/** `npm run worker`: where its probes and metrics are served, when anywhere. */
export const WORKER_SETTINGS = {
  port: setting(
    'WORKER_PORT',
    read.integer(0, 65535).optional(),
    undefined,
    '`npm run worker` serves `/health/live`, `/health/ready`, `/health` and `/metrics` on this port (the stage durations of the packets it runs are counted there); unset: no HTTP at all',
  ),
  host: setting('WORKER_HOST', read.text(), '0.0.0.0', "the interface the worker's probes and metrics listen on (`WORKER_PORT`)"),
};

/** `npm run subgraph -- <name>`: where one component serves on its own. */
export const SUBGRAPH_SETTINGS = {
  port: setting('SUBGRAPH_PORT', read.integer(0, 65535), '4001', 'where `npm run subgraph` listens'),
  host: setting('SUBGRAPH_HOST', read.text(), '127.0.0.1', 'the interface `npm run subgraph` listens on'),
};

export type GraphqlLimits = SettingValues<typeof GRAPHQL_SETTINGS>;
export type JobsConfig = SettingValues<typeof JOBS_SETTINGS>;

/** The core configuration, with the raw environment kept for the components' own settings. */
export type PlatformConfig = SettingValues<typeof CORE_SETTINGS> & {
  graphql: GraphqlLimits;
  jobs: JobsConfig;
  /** SUBGRAPH_<NAME>_URL values by lower-case component name: those components are reached over HTTP */
  subgraphUrls: Record<string, string>;
  env: NodeJS.ProcessEnv;
};

function subgraphUrls(env: NodeJS.ProcessEnv): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const match = /^SUBGRAPH_([A-Z0-9]+)_URL$/.exec(key);
    if (match?.[1] && value) urls[match[1].toLowerCase()] = value;
  }
  return urls;
}

/** Every core variable, read and checked in one place; throws SettingsError naming each bad one. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  return {
    ...readSettings(CORE_SETTINGS, env),
    graphql: readSettings(GRAPHQL_SETTINGS, env),
    jobs: readSettings(JOBS_SETTINGS, env),
    subgraphUrls: subgraphUrls(env),
    env,
  };
}
