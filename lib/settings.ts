import { z } from 'zod';

/**
 * One environment variable: its name, how it is read, its default and what it
 * means. The platform's core and every component declare theirs; the table of
 * docs/configuration.md is generated from the declarations.
 */
export interface Setting<T> {
  env: string;
  schema: z.ZodType<T>;
  /** the value used when the variable is unset or empty, as an operator would write it; undefined: none */
  fallback: string | undefined;
  /** what the configuration page (docs/configuration.md) shows as the default when the fallback is not a plain value */
  shownDefault?: string;
  description: string;
}

// The settings of a component are a record of Setting<unknown>, each with its own value type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Settings = Record<string, Setting<any>>;

/** The values of a settings declaration, typed field by field. */
export type SettingValues<S extends Settings> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

export function setting<T>(env: string, schema: z.ZodType<T>, fallback: string | undefined, description: string, shownDefault?: string): Setting<T> {
  return { env, schema, fallback, description, shownDefault };
}

/** Schemas for environment strings. */
export const read = {
  /** a whole number in [min, max] (negative only where `min` is) */
  integer: (min = 0, max = Number.MAX_SAFE_INTEGER) =>
    z
      .string()
      .trim()
      .regex(min < 0 ? /^-?\d+$/ : /^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(min).max(max)),
  /** `true` or `false` */
  flag: () => z.enum(['true', 'false']).transform((value) => value === 'true'),
  /** any text; unset stays undefined */
  optionalText: () => z.string().optional(),
  text: () => z.string().min(1),
  /** one of the values */
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values),
  /** a comma-separated list */
  list: () =>
    z.string().transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  /** a URL with one of the protocols; unset stays undefined */
  optionalUrl: (...protocols: string[]) =>
    z
      .string()
      .optional()
      .refine((value) => value === undefined || protocols.some((p) => value.startsWith(`${p}://`)), {
        message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
      }),
};

/** Thrown at start-up with every bad variable at once. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

/** Reads one declaration from the environment; an empty variable counts as unset. */
export function readSettings<S extends Settings>(spec: S, env: NodeJS.ProcessEnv): SettingValues<S> {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, item] of Object.entries(spec)) {
    const raw = env[item.env] === '' ? undefined : env[item.env];
    const parsed = item.schema.safeParse(raw ?? item.fallback);
    if (parsed.success) values[key] = parsed.data;
    // A URL's credentials (database, broker, object store) are not repeated in the message.
    else
      problems.push(
        `${item.env}=${JSON.stringify((raw ?? '').replace(/\/\/[^/@]*@/, '//***@'))}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
      );
  }
  if (problems.length) throw new SettingsError(problems);
  return values as SettingValues<S>;
}

/** The configuration page's table rows of some declarations. */
export function settingsTable(groups: { title: string; settings: Settings }[]): string {
  const rows = ['| variable | default | component | meaning |', '| --- | --- | --- | --- |'];
  for (const { title, settings } of groups) {
    for (const item of Object.values(settings)) {
      const shown = item.shownDefault ?? (item.fallback === undefined ? 'unset' : `\`${item.fallback}\``);
      rows.push(`| \`${item.env}\` | ${shown} | ${title} | ${item.description.replace(/\|/g, '\\|')} |`);
    }
  }
  return rows.join('\n');
}
