import { DIGITS_ONLY } from './digits.js';

/*
 * The number rules, from the global configuration (config/syncdata/global.properties):
 * MOSIP's platform.kernel.uin.* and platform.kernel.vid.* keys.
 */

/**
 * A limit of 0 turns its rule off (as MOSIP's VidFilterUtils does for every limit).
 * Read-only: the checks are built once per rules object.
 */
export interface NumberRules {
  readonly length: number;
  readonly notStartWith: readonly string[];
  readonly restrictedNumbers: readonly string[];
  /** `limit` digits ascending or descending by one are refused ("123", "987"). */
  readonly sequenceLimit: number;
  /** The same digit again within `limit` positions is refused (limit 2: "11", "1x1"). */
  readonly repeatingLimit: number;
  /** A block of `limit` or more digits appearing twice is refused (limit 2: "4848", "12x12"). */
  readonly repeatingBlockLimit: number;
  /** UIN: `limit` even digits (2, 4, 6, 8) in a row are refused. */
  readonly conjugativeEvenDigitsLimit?: number;
  /** UIN: the first `limit` digits may not be the last `limit`. */
  readonly digitsLimit?: number;
  /** UIN: the first `limit` digits may not be the last `limit` reversed. */
  readonly reverseDigitsLimit?: number;
  /** UIN: sequences run on past 9 ("8901", "1098"); MOSIP's UIN filter searches "01234567890123456789", its VID filter "0123456789". */
  readonly sequenceWraps?: boolean;
  /** UIN: cyclic numbers (142857, …) refused as substrings, as MOSIP's UinFilterUtil does. */
  readonly cyclicNumbers?: readonly string[];
}

/** The cyclic numbers MOSIP's UinFilterUtil refuses (those longer than the number cannot occur). */
const CYCLIC_NUMBERS = [
  '142857',
  '0588235294117647',
  '052631578947368421',
  '0434782608695652173913',
  '0344827586206896551724137931',
  '0212765957446808510638297872340425531914893617',
  '0169491525423728813559322033898305084745762711864406779661',
  '016393442622950819672131147540983606557377049180327868852459',
  '010309278350515463917525773195876288659793814432989690721649484536082474226804123711340206185567',
];

type Config = Readonly<Record<string, string>>;

function wholeNumber(config: Config, key: string): number {
  const raw = config[key];
  if (raw === undefined) throw new Error(`${key} is missing from the global configuration`);
  if (!DIGITS_ONLY.test(raw.trim())) throw new Error(`${key} must be a whole number, not "${raw}"`);
  return Number(raw.trim());
}

function numberLength(config: Config, key: string): number {
  const length = wholeNumber(config, key);
  // One digit at least, then the check digit.
  if (length < 2) throw new Error(`${key} must be at least 2, not ${length}`);
  return length;
}

/**
 * A comma list of digit strings. Empty entries are dropped: MOSIP's split(',')
 * of an empty value gives [""], which every number "contains" and so refuses all.
 */
function digitList(config: Config, key: string, fallback?: string[]): string[] {
  const raw = config[key];
  if (raw === undefined) {
    if (fallback) return fallback;
    throw new Error(`${key} is missing from the global configuration`);
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !DIGITS_ONLY.test(entry));
  if (bad !== undefined) throw new Error(`${key} must list digits separated by commas, not "${bad}"`);
  return entries;
}

/** UIN rules from `platform.kernel.uin.*`. */
export function uinRules(config: Config): NumberRules {
  const key = (suffix: string) => `platform.kernel.uin.${suffix}`;
  return {
    length: numberLength(config, key('length')),
    // MOSIP reads mosip.kernel.uin.not-start-with; the spec's key list has none, and UINs never start with 0 or 1.
    notStartWith: digitList(config, key('not-start-with'), ['0', '1']),
    restrictedNumbers: digitList(config, key('restricted-numbers')),
    sequenceLimit: wholeNumber(config, key('length.sequence-limit')),
    repeatingLimit: wholeNumber(config, key('length.repeating-limit')),
    repeatingBlockLimit: wholeNumber(config, key('length.repeating-block-limit')),
    conjugativeEvenDigitsLimit: wholeNumber(config, key('length.conjugative-even-digits-limit')),
    digitsLimit: wholeNumber(config, key('length.digits-limit')),
    reverseDigitsLimit: wholeNumber(config, key('length.reverse-digits-limit')),
    sequenceWraps: true,
    cyclicNumbers: [...CYCLIC_NUMBERS],
  };
}

/** VID rules from `platform.kernel.vid.*`. */
export function vidRules(config: Config): NumberRules {
  const key = (suffix: string) => `platform.kernel.vid.${suffix}`;
  return {
    length: numberLength(config, key('length')),
    notStartWith: digitList(config, key('not-start-with')),
    // MOSIP's VidFilterUtils requires mosip.kernel.vid.restricted-numbers; the spec's key list has none, so it is optional here.
    restrictedNumbers: digitList(config, key('restricted-numbers'), []),
    sequenceLimit: wholeNumber(config, key('length.sequence-limit')),
    repeatingLimit: wholeNumber(config, key('length.repeating-limit')),
    repeatingBlockLimit: wholeNumber(config, key('length.repeating-block-limit')),
  };
}

/** Pre-registration id rules from `platform.kernel.prid.*` (MOSIP's PridFilterUtils: the VID's families of rules). */
export function pridRules(config: Config): NumberRules {
  const key = (suffix: string) => `platform.kernel.prid.${suffix}`;
  return {
    length: numberLength(config, key('length')),
    notStartWith: digitList(config, key('not-start-with'), ['0', '1']),
    restrictedNumbers: digitList(config, key('restricted-numbers'), []),
    sequenceLimit: wholeNumber(config, key('sequence-limit')),
    repeatingLimit: wholeNumber(config, key('repeating-limit')),
    repeatingBlockLimit: wholeNumber(config, key('repeating-block-limit')),
  };
}
