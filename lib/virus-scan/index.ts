/**
 * Virus scanning of uploaded files (registration packets) behind one interface: ClamAV's clamd
 * when `CLAMD_URL` is set, otherwise a scanner that lets everything through and says so in
 * /health as NOT_CONFIGURED.
 */
import { ClamdScanner, type ScanVerdict } from './clamd.js';

export { DEFAULT_TIMEOUT_MS, VirusScanError, parseClamdUrl, parseScanReply, type ClamdTarget, type ScanVerdict } from './clamd.js';

export interface VirusScanner {
  readonly kind: 'clamd' | 'none';
  /**
   * Scans a file on disk by streaming it (never read whole into memory). Throws VirusScanError
   * when the scan could not decide (unreachable, timed out, size limit, protocol), the signal's
   * reason when aborted, and file-system errors (a missing file) as they are.
   */
  scanFile(path: string, signal?: AbortSignal): Promise<ScanVerdict>;
  /** For /health: UP / DOWN (with a reason, never a credential) / NOT_CONFIGURED ("not configured"). */
  health(): Promise<{ status: 'UP' | 'DOWN' | 'NOT_CONFIGURED'; detail: string }>;
}

/** No scanner configured: every file is clean, which /health makes visible. */
class NoScanner implements VirusScanner {
  readonly kind = 'none' as const;

  scanFile(_path: string, signal?: AbortSignal): Promise<ScanVerdict> {
    signal?.throwIfAborted();
    return Promise.resolve({ infected: false });
  }

  health(): Promise<{ status: 'NOT_CONFIGURED'; detail: string }> {
    return Promise.resolve({ status: 'NOT_CONFIGURED', detail: 'not configured' });
  }
}

/**
 * `url` unset: the no-op scanner. `tcp://host:port` or `unix:///path/to/clamd.ctl`: clamd, each
 * scan bounded by `timeoutMs` (connect and answer; default 30000). Throws VirusScanError for a
 * URL it cannot use, without repeating the URL.
 */
export function openVirusScanner(options: { url?: string; timeoutMs?: number }): VirusScanner {
  return options.url ? new ClamdScanner(options.url, options.timeoutMs) : new NoScanner();
}
