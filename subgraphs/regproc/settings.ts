import { read, setting, type SettingValues } from '../../lib/settings.js';

/** The registration processor's settings (ABIS.md (e)'s reprocessing, the receiver's scanner, the de-duplication seam). */
export const regprocSettings = {
  clamdUrl: setting(
    'CLAMD_URL',
    read.optionalText(),
    undefined,
    "ClamAV's clamd (`tcp://host:3310` or `unix:///path/clamd.ctl`): every uploaded packet is scanned before it is stored (`RPR-PKR-010` when infected); unset: packets are not scanned and `/health` says so",
  ),
  clamdTimeoutMs: setting('CLAMD_TIMEOUT_MS', read.integer(100), '30000', 'how long one scan may take before the upload is answered as an error'),
  maxPacketBytes: setting(
    'REGPROC_MAX_PACKET_BYTES',
    read.integer(1),
    '67108864',
    'largest packet the receiver accepts (`RPR-PKR-002`); at most `PLATFORM_UPLOAD_MAX_BYTES`',
  ),
  maxInflatedBytes: setting(
    'REGPROC_MAX_INFLATED_BYTES',
    read.integer(1),
    '134217728',
    "the most a packet's files may inflate to together; a zip that declares more is REJECTED (`PACKET_UNZIP_FAILED`) before anything is inflated",
  ),
  maxInflationRatio: setting(
    'REGPROC_MAX_INFLATION_RATIO',
    read.integer(1),
    '100',
    "a packet's files may inflate to at most this many times the zip's own size (never less than 1 MiB, so that a small packet of JSON opens); more is REJECTED as a zip bomb (`PACKET_UNZIP_FAILED`) before anything is inflated",
  ),
  stageLeaseMs: setting(
    'REGPROC_STAGE_LEASE_MS',
    read.integer(500),
    '30000',
    'how long a worker holds a stage between heartbeats: a worker that dies is replaced after this',
  ),
  reprocessElapseSeconds: setting(
    'REGPROC_REPROCESS_ELAPSE_SECONDS',
    read.integer(0),
    '4800',
    'a stage that failed for a reason of the platform (REPROCESS) runs again this long after',
  ),
  reprocessMaxAttempts: setting(
    'REGPROC_REPROCESS_MAX_ATTEMPTS',
    read.integer(1),
    '5',
    'attempts of one stage before the registration is REPROCESS_FAILED (an admin resumes it from the stuck view)',
  ),
  stuckAfterSeconds: setting(
    'REGPROC_STUCK_AFTER_SECONDS',
    read.integer(1),
    '3600',
    'a registration that has made no progress for this long is listed as stuck (as are REPROCESS, REPROCESS_FAILED and FAILED ones)',
  ),
  dedupe: setting(
    'REGPROC_DEDUPE',
    read.oneOf(['local', 'none', 'abis']),
    'local',
    '`local`: biometric de-duplication inside the platform, by a keyed hash of each biometric sample (exact copies only; possible duplicates go to manual adjudication); `none`: every registration passes; `abis`: insert and identify with the ABIS over the queue (`STOMP_URL`, `ABIS_*`)',
  ),
};

export type RegprocSettings = SettingValues<typeof regprocSettings>;
