import { loadConfig, type PlatformConfig } from '../lib/config.js';
import { instanceId, log, routeProcessWarnings, type ProcessRole } from '../lib/log.js';
import { startTracing } from '../lib/tracing.js';
import { PLATFORM_VERSION } from '../lib/version.js';
import { DataFolderInUse } from '../lib/db/data-lock.js';
import { SettingsError } from '../lib/settings.js';
import { StartRefused } from './preflight.js';

/**
 * Starts an entry point (`npm start`, `npm run worker`, `npm run subgraph`):
 * its role on every log line, Node's warnings through the logger, traces
 * when a collector is set, and a start that cannot work said in plain words
 * (a bad setting, a refusal) with exit code 2 instead of a stack trace.
 */
export async function startProcess<T>(role: ProcessRole, start: (config: PlatformConfig) => Promise<T>): Promise<T> {
  log.setBindings({ role });
  routeProcessWarnings(log);
  try {
    const config = loadConfig();
    await startTracing({ endpoint: config.otlpEndpoint, serviceName: config.otelServiceName ?? role, instanceId: instanceId(), version: PLATFORM_VERSION });
    return await start(config);
  } catch (error) {
    if (error instanceof StartRefused || error instanceof SettingsError || error instanceof DataFolderInUse) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    log.fatal({ err: error }, 'start failed');
    process.exit(1);
  }
}
