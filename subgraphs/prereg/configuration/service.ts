import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { MAX_CONFIG_KEYS } from '../../../lib/global-configuration.js';
import type { Logger } from '../../../lib/log.js';
import { loginErrors } from '../errors.js';
import { parseProperties } from './properties.js';

const hours = z.coerce
  .number()
  .int()
  .min(0)
  .max(24 * 365);
const days = z.coerce.number().int().min(0).max(3650);
const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** The keys the platform's own rules read, with MOSIP's defaults where the file leaves one out. */
const RULES = z.object({
  'preregistration.timespan.cancel': hours.default(0),
  'preregistration.timespan.rebook': hours.default(0),
  'preregistration.booking.offset': days.default(2),
  'preregistration.availability.noOfDays': days.min(1).max(366).default(30),
  'preregistration.documentupload.allowed.file.nameLength': z.coerce.number().int().min(1).max(255).default(50),
  'preregistration.documentupload.allowed.file.size': z.coerce
    .number()
    .int()
    .min(1)
    .max(64 * 1024 * 1024)
    .default(2_000_000),
  'preregistration.documentupload.allowed.file.type': list.default(['application/pdf', 'image/jpeg', 'image/png', 'image/jpg']),
  'platform.supported-languages': list.default(['eng']),
  'preregistration.documentupload.mandatory.categories': list.default([]),
});

/** What booking and documents follow, read from the configuration file. */
export interface PreregRules {
  /** whole hours before a slot within which it is no longer cancelled (0: any time) */
  cancelHours: number;
  /** the same for re-booking */
  rebookHours: number;
  /** days after today of the first day offered */
  bookingOffsetDays: number;
  /** how many days are offered */
  availabilityDays: number;
  documentNameLength: number;
  documentMaxBytes: number;
  /** MIME types taken */
  documentTypes: readonly string[];
  languages: readonly string[];
  /** document categories an application must hold before it is booked (beside the ID schema's required documents) */
  mandatoryCategories: readonly string[];
}

function rulesOf(entries: ReadonlyMap<string, string>): PreregRules {
  const known = Object.fromEntries(Object.keys(RULES.shape).flatMap((key) => (entries.has(key) ? [[key, entries.get(key)]] : [])));
  const parsed = RULES.safeParse(known);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new Error(`the pre-registration configuration's ${String(issue?.path[0])} is not valid: ${issue?.message}`);
  }
  const value = parsed.data;
  return {
    cancelHours: value['preregistration.timespan.cancel'],
    rebookHours: value['preregistration.timespan.rebook'],
    bookingOffsetDays: value['preregistration.booking.offset'],
    availabilityDays: value['preregistration.availability.noOfDays'],
    documentNameLength: value['preregistration.documentupload.allowed.file.nameLength'],
    documentMaxBytes: value['preregistration.documentupload.allowed.file.size'],
    documentTypes: value['preregistration.documentupload.allowed.file.type'].map((type) => type.toLowerCase()),
    languages: value['platform.supported-languages'],
    mandatoryCategories: value['preregistration.documentupload.mandatory.categories'],
  };
}

/**
 * Pre-registration's configuration file (PREREG_CONFIG_FILE): GET
 * /login/config serves its keys to the portal, and booking and documents
 * follow its `preregistration.*` rules. Read at start and by refreshconfig;
 * a file missing at start leaves MOSIP's defaults to the rules and the
 * config call answering PRG_AUTH_012, and a refresh that cannot read the
 * file keeps what was read before.
 */
export class PreregConfiguration {
  private entries: ReadonlyMap<string, string> | undefined;
  private current: PreregRules = rulesOf(new Map());

  constructor(
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  /** Reads the file at start: a missing one is logged, a malformed rule stops the platform (the operator's to fix). */
  async start(): Promise<void> {
    const read = await this.read();
    if (!read)
      return void this.logger.warn(
        { file: this.file },
        'the pre-registration configuration file is missing: GET /preregistration/v1/login/config answers PRG_AUTH_012',
      );
    this.apply(read);
  }

  private async read(): Promise<Map<string, string> | undefined> {
    try {
      const entries = parseProperties(await readFile(this.file, 'utf8'));
      // The portal reads them whole: as many as a configuration the platform serves may hold.
      if (entries.size > MAX_CONFIG_KEYS) throw new Error(`the pre-registration configuration holds more than ${MAX_CONFIG_KEYS} keys`);
      return entries;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
      throw error;
    }
  }

  private apply(entries: Map<string, string>): void {
    this.current = rulesOf(entries);
    this.entries = entries;
  }

  /** Every key of the file with its value (PRG_AUTH_012 when no file was read). */
  all(): { key: string; value: string }[] {
    if (!this.entries) throw loginErrors.configMissing();
    return [...this.entries].map(([key, value]) => ({ key, value }));
  }

  /** Reads the file again (PRG_AUTH_012 when it is gone or its rules are not valid; what was read before stays). */
  async refresh(): Promise<void> {
    const read = await this.read().catch(() => undefined);
    if (!read) throw loginErrors.configMissing();
    try {
      this.apply(read);
    } catch (error) {
      this.logger.warn({ file: this.file, reason: (error as Error).message }, 'the pre-registration configuration was not refreshed');
      throw loginErrors.configMissing();
    }
  }

  rules(): PreregRules {
    return this.current;
  }

  /** One key's value as the file gives it (undefined when absent). */
  value(key: string): string | undefined {
    return this.entries?.get(key);
  }
}
