/** Characters that show nothing: format characters (zero-width space and joiners, BOM, bidi controls, soft hyphen) and other default-ignorables (variation selectors, Hangul fillers). */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * A MISP's name as it is kept and shown: NFKC (full-width and compatibility
 * forms become plain ones), without invisible characters, its runs of white
 * space one space, trimmed. Idempotent.
 */
export function mispName(name: string): string {
  return name.normalize('NFKC').replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
}

/**
 * What two MISP names are compared by: the kept name case-folded (upper then
 * lower case maps ß and SS, ς and σ alike), NFKC again. Names with the same
 * key are one name: the database keeps one MISP per key (unique index).
 */
export function mispNameKey(name: string): string {
  return mispName(name).toUpperCase().toLowerCase().normalize('NFKC');
}
