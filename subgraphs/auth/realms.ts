/** The application ids (realms) of spec Document 1, Authentication 2. */
export const APP_IDS = ['preregistration', 'registrationclient', 'registrationprocessor', 'ida', 'admin', 'resident', 'partnermanagement'] as const;

export type AppId = (typeof APP_IDS)[number];

export function isAppId(value: string): value is AppId {
  return (APP_IDS as readonly string[]).includes(value);
}
