/**
 * A development ABIS (tools/mock-abis) on the platform's queues:
 *
 *   npm run mock-abis -- [--stomp stomp://127.0.0.1:61613] [--request-queue /queue/platform-to-abis]
 *     [--response-queue /queue/abis-to-platform] [--base http://localhost:8080] [--client-id ID]
 *     [--secret-key KEY] [--keys ./data/mock-abis] [--state FILE] [--expectations FILE]
 *     [--partner-id partner-default-abis] [--print-certificate]
 *
 * Environment fallbacks: STOMP_URL, STOMP_LOGIN, STOMP_PASSCODE, ABIS_CLIENT_ID, ABIS_CLIENT_SECRET,
 * ABIS_REQUEST_QUEUE, ABIS_RESPONSE_QUEUE, ABIS_PARTNER_ID, PLATFORM_PUBLIC_URL.
 * Prints its certificate and the command uploading it, then serves until SIGINT/SIGTERM.
 * --print-certificate prints them and exits.
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { certificateNotice, DEFAULT_PARTNER_ID, loadOrCreateKeys } from '../tools/mock-abis/keys.js';
import { DEFAULT_BASE, DEFAULT_KEYS_DIR, DEFAULT_REQUEST_QUEUE, DEFAULT_RESPONSE_QUEUE, DEFAULT_STOMP_URL, startMockAbis } from '../tools/mock-abis/index.js';

const USAGE = `usage: npm run mock-abis -- [--stomp URL] [--request-queue DEST] [--response-queue DEST] [--base URL]
  [--client-id ID] [--secret-key KEY] [--keys DIR] [--state FILE] [--expectations FILE] [--partner-id ID] [--print-certificate]`;

/** A queue name as given (`platform-to-abis`) or as a STOMP destination (`/queue/platform-to-abis`). */
const destination = (name: string) => (name.startsWith('/') ? name : `/queue/${name}`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      stomp: { type: 'string' },
      'request-queue': { type: 'string' },
      'response-queue': { type: 'string' },
      base: { type: 'string' },
      'client-id': { type: 'string' },
      'secret-key': { type: 'string' },
      keys: { type: 'string' },
      state: { type: 'string' },
      expectations: { type: 'string' },
      'partner-id': { type: 'string' },
      'print-certificate': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = process.env;
  const base = values.base ?? env.PLATFORM_PUBLIC_URL ?? DEFAULT_BASE;
  const keysDir = values.keys ?? DEFAULT_KEYS_DIR;
  const partnerId = values['partner-id'] ?? env.ABIS_PARTNER_ID ?? DEFAULT_PARTNER_ID;

  if (values['print-certificate']) {
    console.log(certificateNotice(await loadOrCreateKeys(keysDir), { base, partnerId }));
    return;
  }

  const logger = pino({ level: env.LOG_LEVEL ?? 'info', base: { service: 'mock-abis' }, redact: ['secretKey', '*.secretKey', 'passcode'] });
  const clientId = values['client-id'] ?? env.ABIS_CLIENT_ID;
  const secretKey = values['secret-key'] ?? env.ABIS_CLIENT_SECRET;
  if (!clientId) logger.warn({}, 'no --client-id / ABIS_CLIENT_ID: data shares are fetched without a token');
  const abis = await startMockAbis({
    stompUrl: values.stomp ?? env.STOMP_URL ?? DEFAULT_STOMP_URL,
    login: env.STOMP_LOGIN,
    passcode: env.STOMP_PASSCODE,
    requestQueue: destination(values['request-queue'] ?? env.ABIS_REQUEST_QUEUE ?? DEFAULT_REQUEST_QUEUE),
    responseQueue: destination(values['response-queue'] ?? env.ABIS_RESPONSE_QUEUE ?? DEFAULT_RESPONSE_QUEUE),
    base,
    clientId,
    secretKey,
    keysDir,
    partnerId,
    stateFile: values.state,
    expectations: values.expectations,
    logger,
    waitForBroker: false,
  });
  console.log(abis.notice);
  console.log(`\nmock ABIS: ${abis.requestQueue} -> ${abis.responseQueue}; ${abis.store.count()} references; ${abis.expectations.size} expectations`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'mock ABIS: stopping');
    abis.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`mock-abis: ${error instanceof Error ? error.message : String(error)}`);
  console.error(USAGE);
  process.exit(1);
});
