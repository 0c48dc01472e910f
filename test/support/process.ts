import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface PlatformProcess {
  child: ChildProcessWithoutNullStreams;
  /** everything the process wrote to stdout and stderr so far */
  output(): string;
  /** the pino log lines written so far, parsed */
  logLines(): Record<string, unknown>[];
  /** resolves when the output contains `text` */
  waitForOutput(text: string, what: string, ms?: number): Promise<void>;
  /** the exit code once the process has exited */
  exited: Promise<number | null>;
  /** sends the signal and waits for the exit code */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * An npm script run as operators run it (`npm start`, `npm run subgraph -- auth`):
 * npm in between, so a signal takes the same path as in production.
 */
export function runNpmScript(args: string[], env: Record<string, string>): PlatformProcess {
  const child = spawn('npm', ['--silent', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  return {
    child,
    output: () => output,
    logLines: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    waitForOutput: async (text, what, ms = 90_000) => {
      await waitFor(
        () => {
          if (exitCode !== undefined) throw new Error(`process exited (${exitCode}) before ${what}:\n${output}`);
          return output.includes(text);
        },
        what,
        ms,
      );
    },
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (exitCode === undefined) child.kill(signal);
      return exited;
    },
  };
}
