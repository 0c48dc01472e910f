// npm run platform -- <command>: the operators' command line over the platform's services (docs/admin-cli.md).
import { pino } from 'pino';
import { loadConfig } from '../lib/config.js';
import { createLogger, routeProcessWarnings } from '../lib/log.js';
import { runCli } from '../tools/admin/cli.js';

// Log lines go to standard error, so that standard output holds only the answer (--json is parsed by scripts).
const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', role: 'cli', destination: pino.destination({ dest: 2, sync: true }) });
routeProcessWarnings(logger);

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  openContext: async (actor) => {
    // Imported on use: --help and usage errors answer without loading every component.
    const { openAdminContext } = await import('../tools/admin/context.js');
    return openAdminContext(loadConfig(), logger, actor);
  },
});
// Everything is closed by now; a library's timer left behind does not hold the shell.
setTimeout(() => process.exit(), 2_000).unref();
