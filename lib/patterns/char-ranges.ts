// Sets of characters as ranges of code points: what the pattern gate (patterns.ts) compares the parts of a pattern by.

export type Ranges = readonly (readonly [number, number])[];

export const MAX_CODE_POINT = 0x10ffff;
export const ANY: Ranges = [[0, MAX_CODE_POINT]];
export const NONE: Ranges = [];
export const DIGIT: Ranges = [[0x30, 0x39]];
export const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
export const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

export function union(...sets: Ranges[]): Ranges {
  const all = sets.flat().sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of all) {
    const last = merged.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

export function complement(set: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of union(set)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

export const overlaps = (a: Ranges, b: Ranges): boolean => a.some(([lo, hi]) => b.some(([lo2, hi2]) => lo <= hi2 && lo2 <= hi));

/** ASCII letters in both cases: a pattern may turn case-insensitive inside ((?i:…)), and a wider set only makes the check stricter. */
export function bothCases(set: Ranges): Ranges {
  const extra: [number, number][] = [];
  for (const [lo, hi] of set) {
    for (const [from, to, shift] of [
      [0x41, 0x5a, 0x20],
      [0x61, 0x7a, -0x20],
    ] as const) {
      const a = Math.max(lo, from);
      const b = Math.min(hi, to);
      if (a <= b) extra.push([a + shift, b + shift]);
    }
  }
  return extra.length ? union(set, extra) : set;
}

/** Every character beyond ASCII. */
export const NON_ASCII: Ranges = [[0x80, MAX_CODE_POINT]];
