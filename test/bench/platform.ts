// What every benchmark's platform shares: the admin's password and the master key it starts with,
// its environment, the request envelope and the admin's login.

export const ADMIN_PASSWORD = 'Bench-admin-password-1';
export const MASTER_KEY = 'bench-master-key';

export const envelope = (request: unknown) => ({ id: 'bench', version: '1.0', requesttime: new Date().toISOString(), request });

/** A platform on its own port, data folder and database; no broker, warnings only, no throttles (the load logs in from one address thousands of times); `extra` adds or overrides. */
export const platformEnv = (port: number, dataDir: string, databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> => ({
  PORT: String(port),
  PLATFORM_DATA_DIR: dataDir,
  PLATFORM_ADMIN_PASSWORD: ADMIN_PASSWORD,
  PLATFORM_MASTER_KEY: MASTER_KEY,
  DATABASE_URL: databaseUrl,
  STOMP_URL: '',
  LOG_LEVEL: 'warn',
  PLATFORM_THROTTLE_ACCOUNT: '0',
  PLATFORM_THROTTLE_ADDRESS: '0',
  ...extra,
});

/** The admin's password login, as the body a client sends. */
export const adminLogin = () => envelope({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' });

/** Logs the admin in: the session cookie it is answered with. */
export async function adminCookie(url: string): Promise<string> {
  const login = await fetch(`${url}/v1/authmanager/authenticate/internal/useridPwd`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(adminLogin()),
  });
  return /Authorization=Platform-Token[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0];
}
