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
  /** sends the signal to the whole process group (npm and node alike), as a terminal's Ctrl-C or `docker stop` does; needs `group` */
  signalGroup(signal: NodeJS.Signals): void;
}

/**
 * An npm script run as operators run it (`npm start`, `npm run subgraph -- auth`):
 * npm in between, so a signal takes the same path as in production.
 */
export function runNpmScript(args: string[], env: Record<string, string>, options: { group?: boolean } = {}): PlatformProcess {
  // `group`: npm leads a process group of its own, so the group can be signalled without reaching the test runner.
  const child = spawn('npm', ['--silent', ...args], { cwd: ROOT, env: { ...process.env, ...env }, detached: options.group ?? false });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };
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
      // A group may outlive its leader (node after npm): it is signalled whatever npm did.
      if (options.group) signalGroup(signal);
      else if (exitCode === undefined) child.kill(signal);
      return exited;
    },
    signalGroup: (signal) => {
      if (!options.group) throw new Error('signalGroup needs a process started with { group: true }');
      signalGroup(signal);
    },
  };
}
