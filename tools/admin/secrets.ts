import { CommandRefusal } from './command.js';

export const PASSWORD_VARIABLE = 'PLATFORM_NEW_PASSWORD';
export const CLIENT_SECRET_VARIABLE = 'PLATFORM_NEW_CLIENT_SECRET';

/** Options that would put a secret in the shell's history: refused before anything runs. */
const SECRET_OPTION = /^--(password|passwd|pass|secret|secret-key|client-secret|secretkey)(=.*)?$/i;

export function secretInArguments(argv: readonly string[]): boolean {
  return argv.some((token) => SECRET_OPTION.test(token));
}

export const SECRET_REFUSAL = `a password or secret is never taken from the command line (it would stay in the shell history): set ${PASSWORD_VARIABLE} or ${CLIENT_SECRET_VARIABLE}, or answer the prompt`;

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003' || char === '\u0004') return finish(new CommandRefusal('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/**
 * A new password: PLATFORM_NEW_PASSWORD, else asked twice on a terminal;
 * undefined when neither can give one (the caller decides whether that is a
 * refusal). Never echoed, never printed.
 */
export async function newPassword(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const fromEnv = env[PASSWORD_VARIABLE];
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) return undefined;
  const first = await promptHidden('New password: ');
  const again = await promptHidden('The same password again: ');
  if (first !== again) throw new CommandRefusal('the two passwords differ: nothing was changed');
  if (!first) throw new CommandRefusal('the password is empty: nothing was changed');
  return first;
}

/** A client secret from PLATFORM_NEW_CLIENT_SECRET (at least 32 characters, as the platform's bootstrap client's), or undefined: the platform makes one. */
export function givenClientSecret(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const secret = env[CLIENT_SECRET_VARIABLE];
  if (!secret) return undefined;
  if (secret.length < 32) throw new CommandRefusal(`${CLIENT_SECRET_VARIABLE} has fewer than 32 characters: use a long random secret`);
  return secret;
}
