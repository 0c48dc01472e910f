/*
 * UIN, VID and pre-registration numbers as MOSIP's kernel id generator makes and checks them
 * (UinFilterUtil, VidFilterUtils, ChecksumUtils). Pure functions: the numbers
 * already handed out live elsewhere. One file per rule family under numbers/.
 */
export { pridRules, uinRules, vidRules, type NumberRules } from './numbers/config.js';
export { generateNumber } from './numbers/generate.js';
export { violations } from './numbers/validate.js';
export { verhoeffCheckDigit, verhoeffValid } from './numbers/verhoeff.js';
