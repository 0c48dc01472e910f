import net from 'node:net';

/** Polls until `check` returns a value other than undefined/false, and returns it; fails after `ms`. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls until `check` holds, for at most `ms`. */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000, what = 'condition'): Promise<void> {
  await waitFor(check, what, ms);
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net
      .createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      })
      .on('error', reject);
  });
}
