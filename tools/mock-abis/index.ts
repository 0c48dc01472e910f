import { StompConnection, type StompMessage } from '../../lib/queue/stomp.js';
import { DataShareClient } from './datashare.js';
import { Expectations, loadExpectations, type Expectation } from './expectations.js';
import { certificateNotice, DEFAULT_PARTNER_ID, loadOrCreateKeys, type AbisKeys } from './keys.js';
import { handleRequest, parseRequest, type ProtocolContext, type Reply } from './protocol.js';
import { messageTypeOf, pinoFor, sendReply, silentLogger, type Logger } from './queue.js';
import { MemoryStore } from './store.js';

/**
 * A development ABIS like MOSIP's mock-abis: it speaks to the platform only
 * through the request/response queues and the data share over HTTP. Tooling:
 * the platform's code never imports it.
 */

export { handleRequest } from './protocol.js';
export type { Reply } from './protocol.js';
export { MemoryStore } from './store.js';
export { Expectations, type Expectation } from './expectations.js';
export type { AbisKeys } from './keys.js';

export const DEFAULT_REQUEST_QUEUE = '/queue/platform-to-abis';
export const DEFAULT_RESPONSE_QUEUE = '/queue/abis-to-platform';
export const DEFAULT_STOMP_URL = 'stomp://127.0.0.1:61613';
export const DEFAULT_BASE = 'http://localhost:8080';
export const DEFAULT_KEYS_DIR = './data/mock-abis';

export interface MockAbisOptions {
  stompUrl?: string;
  login?: string;
  passcode?: string;
  requestQueue?: string;
  responseQueue?: string;
  /** the platform's base URL (authentication) */
  base?: string;
  clientId?: string;
  secretKey?: string;
  appId?: string;
  keysDir?: string;
  partnerId?: string;
  /** JSON file the references (and replies by requestId) persist to */
  stateFile?: string;
  /** a JSON file, or expectations given directly */
  expectations?: string | Expectation[];
  logger?: Logger;
  /** resolve start only once subscribed (default true) */
  waitForBroker?: boolean;
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  fetch?: typeof fetch;
}

export interface MockAbis {
  keys: AbisKeys;
  store: MemoryStore;
  expectations: Expectations;
  /** the certificate, thumbprint and upload command, as printed on start */
  notice: string;
  requestQueue: string;
  responseQueue: string;
  /** serves one request body without the queue (the reply body sent, cached by requestId) */
  serve(body: Buffer | string): Promise<string>;
  readonly connected: boolean;
  close(): Promise<void>;
}

export async function startMockAbis(options: MockAbisOptions = {}): Promise<MockAbis> {
  const log = options.logger ?? silentLogger;
  const requestQueue = options.requestQueue ?? DEFAULT_REQUEST_QUEUE;
  const responseQueue = options.responseQueue ?? DEFAULT_RESPONSE_QUEUE;
  const base = options.base ?? DEFAULT_BASE;
  const keys = await loadOrCreateKeys(options.keysDir ?? DEFAULT_KEYS_DIR);
  const store = new MemoryStore({ stateFile: options.stateFile });
  const expectations = typeof options.expectations === 'string' ? loadExpectations(options.expectations) : new Expectations(options.expectations ?? []);
  const dataShare = new DataShareClient({
    base,
    clientId: options.clientId,
    secretKey: options.secretKey,
    appId: options.appId,
    privateKey: keys.privateKey,
    thumbprint: keys.thumbprint,
    fetch: options.fetch,
    onError: (message, detail) => log.warn(detail, `mock ABIS: ${message}`),
  });

  let pending = 0;
  const context: ProtocolContext = {
    store,
    fetchBiometrics: (url) => dataShare.fetchBiometrics(url),
    pendingJobs: () => Math.max(0, pending - 1),
    expectation: (operation, entries) => expectations.match(operation, entries),
  };

  /** The reply body for a request: the one already sent for its requestId, or a new one. */
  const serve = async (body: Buffer | string): Promise<string> => {
    const parsed = parseRequest(body);
    const requestId = parsed.ok && typeof parsed.request.requestId === 'string' && parsed.request.requestId ? parsed.request.requestId : undefined;
    const known = requestId === undefined ? undefined : store.reply(requestId);
    if (known !== undefined) {
      log.info({ requestId }, 'mock ABIS: repeated requestId, same reply');
      return known;
    }
    const reply: Reply = await handleRequest(body, context);
    const text = JSON.stringify(reply);
    if (requestId !== undefined) store.rememberReply(requestId, text);
    log.info({ id: reply.id, requestId, returnValue: reply.returnValue, failureReason: reply.failureReason }, 'mock ABIS: served');
    return text;
  };

  // Requests are served one at a time in arrival order: queued inserts before a later identify.
  let chain: Promise<unknown> = Promise.resolve();
  const onMessage = (delivery: StompMessage): Promise<void> => {
    pending++;
    const type = messageTypeOf(delivery.headers);
    const run = chain.then(async () => {
      try {
        const text = await serve(delivery.body);
        const requestId = (JSON.parse(text) as { requestId?: unknown }).requestId;
        await sendReply(connection, responseQueue, text, type, typeof requestId === 'string' ? { 'correlation-id': requestId } : {});
        delivery.ack(); // only once the broker holds the reply
      } finally {
        pending--;
      }
    });
    chain = run.catch(() => undefined);
    return run;
  };

  const connection = new StompConnection({
    url: options.stompUrl ?? DEFAULT_STOMP_URL,
    login: options.login,
    passcode: options.passcode,
    logger: pinoFor(log),
    reconnectDelayMs: options.reconnectDelayMs,
    maxReconnectDelayMs: options.maxReconnectDelayMs,
  });
  // Subscribed before connecting, so the first session and every later one consume the request queue.
  connection.subscribe(requestQueue, onMessage, { ack: 'client-individual' });
  // A failed first attempt is logged by the connection, which keeps retrying until close().
  connection.connect().catch(() => undefined);
  const up = connection.whenUp().then(
    () => log.info({ queue: requestQueue }, 'mock ABIS: listening'),
    () => undefined, // closed before the broker was reached
  );
  if (options.waitForBroker ?? true) await up;

  return {
    keys,
    store,
    expectations,
    notice: certificateNotice(keys, { base, partnerId: options.partnerId ?? DEFAULT_PARTNER_ID }),
    requestQueue,
    responseQueue,
    serve,
    get connected() {
      return connection.state === 'UP';
    },
    close: () => connection.close(),
  };
}
