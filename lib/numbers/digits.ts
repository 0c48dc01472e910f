/** A number as its digits, 0 to 9 each: the rules and the generator read these, not text. */
export type Digits = Uint8Array;

/** Typed-array reads: every index used here is in range by construction. */
export const at = (table: Digits, index: number): number => table[index] as number;

export const DIGITS_ONLY = /^\d+$/;

export function toDigits(text: string): Digits {
  const digits = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) digits[i] = text.charCodeAt(i) - 48;
  return digits;
}
