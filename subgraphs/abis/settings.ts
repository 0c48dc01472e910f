import { read, setting, type SettingValues } from '../../lib/settings.js';

/** The most ABIS that run side by side: the bound of abisSystems and of a question's or delete's requests (one per ABIS). */
export const MAX_ABIS = 16;

/** The ABIS component's settings (the data share; the queue's come with the requests). */
export const abisSettings = {
  count: setting(
    'ABIS_COUNT',
    read.integer(1, MAX_ABIS),
    '1',
    'how many ABIS run side by side: `abis1` on the request and response queues as named, `abisN` (N > 1) on `<request queue>N` and `abisN-to-platform`',
  ),
  requestQueue: setting('ABIS_REQUEST_QUEUE', read.text(), 'platform-to-abis', 'the queue the platform sends ABIS requests to (ActiveMQ over STOMP)'),
  responseQueue: setting('ABIS_RESPONSE_QUEUE', read.text(), 'abis-to-platform', 'the queue the ABIS answers on'),
  messageFormat: setting('ABIS_MESSAGE_FORMAT', read.oneOf(['text', 'bytes']), 'text', 'ABIS requests as JMS text messages (as MOSIP) or bytes messages'),
  messageTtlSeconds: setting('ABIS_MESSAGE_TTL_SECONDS', read.integer(1), '2700', 'how long an ABIS request waits in its queue before the broker drops it'),
  responseTimeoutSeconds: setting(
    'ABIS_RESPONSE_TIMEOUT_SECONDS',
    read.integer(1),
    '5400',
    'a request sent and not answered for this long is FAILED and its registration REPROCESS (the retry sends a new request with a fresh data share)',
  ),
  pingIntervalSeconds: setting(
    'ABIS_PING_INTERVAL_SECONDS',
    read.integer(0),
    '60',
    "how often the platform pings every ABIS; the answers make each ABIS's liveness in `/health` and the admin view (`0`: no automatic pings)",
  ),
  pingTimeoutSeconds: setting(
    'ABIS_PING_TIMEOUT_SECONDS',
    read.integer(1),
    '30',
    'how long a ping, pendingJobs or referenceCount waits for its answer (its queue expiry too); an ABIS whose last ping is unanswered this long is `DOWN`',
  ),
  deleteRejected: setting(
    'ABIS_DELETE_REJECTED',
    read.flag(),
    'true',
    "a registration an adjudicator rejects as a duplicate is deleted from every ABIS's gallery (the ABIS delete operation)",
  ),
  partnerId: setting(
    'ABIS_PARTNER_ID',
    read.text(),
    'partner-default-abis',
    "the ABIS's partner id: its data shares are encrypted for this partner's uploaded certificate (applicationId PARTNER)",
  ),
  policyId: setting('ABIS_POLICY_ID', read.text(), 'policy-default-abis', 'the policy id in data share addresses'),
  dataShareLayout: setting(
    'ABIS_DATASHARE_LAYOUT',
    read.oneOf(['VER_R2', 'LEGACY']),
    'VER_R2',
    "the data share's encryption layout: MOSIP 1.2's `VER_R2` or 1.1's `LEGACY`",
  ),
  dataShareValidMinutes: setting(
    'ABIS_DATASHARE_VALID_MINUTES',
    read.integer(1),
    '60',
    'how long a data share can be fetched (longer than the queue message TTL)',
  ),
  dataShareTransactions: setting(
    'ABIS_DATASHARE_TRANSACTIONS_ALLOWED',
    read.integer(-1),
    '-1',
    'how many times a data share can be fetched (`-1`: until it expires)',
  ),
};

export type AbisSettings = SettingValues<typeof abisSettings>;
