import { createHash, randomUUID } from 'node:crypto';
import { PacketFormatError } from './errors.js';

/**
 * CBEFF XML (ISO 19785-3, patron 257) as ABIS.md (d) shows it: a root BIR
 * holding one nested BIR per biometric. No XML library is installed, so this
 * reads the document with a small strict parser: elements, attributes, text,
 * comments, CDATA and the five predefined entities; no DTD (DOCTYPE and
 * ENTITY are refused, so no entity expansion or external fetch can happen).
 * The parser scans forward with indexOf and sticky, bounded regexes: linear in
 * the input, no backtracking to exploit.
 */

export const CBEFF_NAMESPACE = 'http://standards.iso.org/iso-iec/19785/-3/ed-2/';

/** MOSIP's BDB types; ExceptionPhoto is the face photo a client takes when a biometric is missing. */
export const BIOMETRIC_TYPES = ['Finger', 'Iris', 'Face', 'ExceptionPhoto'] as const;
export type BiometricType = (typeof BIOMETRIC_TYPES)[number];

/** BDB format types: 7 finger image (2 is minutiae), 9 iris, 8 face. */
export const DEFAULT_FORMAT_TYPE: Readonly<Record<BiometricType, number>> = { Finger: 7, Iris: 9, Face: 8, ExceptionPhoto: 8 };

export const FINGER_SUBTYPES = ['Left', 'Right'].flatMap((side) =>
  ['Thumb', 'IndexFinger', 'MiddleFinger', 'RingFinger', 'LittleFinger'].map((finger) => `${side} ${finger}`),
);
export const IRIS_SUBTYPES = ['Left', 'Right'];

export interface BirInput {
  type: BiometricType;
  /** e.g. "Left IndexFinger", "Right"; empty or omitted for a face */
  subtype?: string;
  formatType?: number;
  /** the ISO record; null for an exception (a biometric that could not be captured) */
  bdb: Buffer | null;
  exception?: boolean;
  quality?: number;
  /** the BDBInfo Index; a random UUID by default */
  index?: string;
  creationDate?: Date;
}

export interface ParsedBir {
  type: BiometricType;
  subtype: string;
  formatType: number;
  bdb: Buffer | null;
  exception: boolean;
  quality?: number;
}

export interface ParsedCbeff {
  birs: ParsedBir[];
}

// ---------------------------------------------------------------- building

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function birXml(bir: BirInput, now: Date): string {
  const subtype = bir.subtype?.trim() ? `<Subtype>${escapeXml(bir.subtype.trim())}</Subtype>` : '';
  const quality =
    bir.quality === undefined
      ? ''
      : `\n      <Quality><Algorithm><Organization>HMAC</Organization><Type>SHA-256</Type></Algorithm><Score>${Math.round(bir.quality)}</Score></Quality>`;
  const bdb = bir.bdb?.length ? `\n    <BDB>${bir.bdb.toString('base64')}</BDB>` : '';
  return `  <BIR>
    <Version><Major>1</Major><Minor>1</Minor></Version>
    <CBEFFVersion><Major>1</Major><Minor>1</Minor></CBEFFVersion>
    <BIRInfo><Integrity>false</Integrity></BIRInfo>
    <BDBInfo>
      <Index>${escapeXml(bir.index ?? randomUUID())}</Index>
      <Format><Organization>Mosip</Organization><Type>${bir.formatType ?? DEFAULT_FORMAT_TYPE[bir.type]}</Type></Format>
      <CreationDate>${(bir.creationDate ?? now).toISOString()}</CreationDate>
      <Type>${bir.type}</Type>${subtype}
      <Level>Raw</Level><Purpose>Enroll</Purpose>${quality}
    </BDBInfo>${bdb}
    <others><entry key="EXCEPTION">${bir.exception ? 'true' : 'false'}</entry></others>
  </BIR>
`;
}

/** The CBEFF document of these biometrics, UTF-8. */
export function buildCbeff(birs: readonly BirInput[], now = new Date()): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<BIR xmlns="${CBEFF_NAMESPACE}">
  <BIRInfo><Integrity>false</Integrity></BIRInfo>
${birs.map((bir) => birXml(bir, now)).join('')}</BIR>
`,
    'utf8',
  );
}

// ---------------------------------------------------------------- a strict little XML reader

interface XmlElement {
  /** local name, prefix removed */
  name: string;
  namespace: string | undefined;
  attributes: Map<string, string>;
  children: XmlElement[];
  text: string;
  /** offsets in the source string: from "<" of the start tag to after ">" of the end tag */
  start: number;
  end: number;
  scope: Map<string, string>;
}

const MAX_DEPTH = 32;
const MAX_ELEMENTS = 200_000;
const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;
const CLOSE_TAG_END = /\s*>/y;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const fail = (message: string): never => {
  throw new PacketFormatError(`the CBEFF is not well-formed XML: ${message}`);
};

function decodeEntities(text: string): string {
  return text.replace(/&(?:([A-Za-z]{2,4}|#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7});)?/g, (_match, entity: string | undefined) => {
    if (entity === undefined) return fail('a bare & or a malformed entity reference');
    if (PREDEFINED[entity]) return PREDEFINED[entity];
    const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : entity.startsWith('#') ? parseInt(entity.slice(1), 10) : NaN;
    if (!Number.isInteger(code) || code > 0x10ffff || code === 0) return fail('an unknown entity reference');
    return String.fromCodePoint(code);
  });
}

function sticky(pattern: RegExp, source: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(source);
}

/** Returns the index just after `terminator`, searching from `from`. */
function skipPast(source: string, from: number, terminator: string, what: string): number {
  const at = source.indexOf(terminator, from);
  if (at < 0) fail(`an unterminated ${what}`);
  return at + terminator.length;
}

function resolveName(qualified: string, scope: Map<string, string>): { name: string; namespace: string | undefined } {
  const colon = qualified.indexOf(':');
  if (colon < 0) return { name: qualified, namespace: scope.get('') };
  const prefix = qualified.slice(0, colon);
  if (!scope.has(prefix)) fail('an undeclared namespace prefix');
  return { name: qualified.slice(colon + 1), namespace: scope.get(prefix) };
}

/** Parses a start tag at `at` ("<" included); returns the element (not yet closed) and where the tag ends. */
function startTag(
  source: string,
  at: number,
  parentScope: Map<string, string>,
): { element: XmlElement; next: number; selfClosing: boolean; qualified: string } {
  const nameMatch = sticky(NAME, source, at + 1) ?? fail('a malformed start tag');
  const qualified = nameMatch[0];
  let next = at + 1 + qualified.length;
  const raw = new Map<string, string>();
  for (let match = sticky(ATTRIBUTE, source, next); match; match = sticky(ATTRIBUTE, source, next)) {
    if (raw.has(match[1]!)) fail('a repeated attribute');
    raw.set(match[1]!, decodeEntities(match[2] ?? match[3] ?? ''));
    next += match[0].length;
  }
  const end = sticky(TAG_END, source, next) ?? fail('a malformed start tag');
  next += end[0].length;
  const scope = new Map(parentScope);
  const attributes = new Map<string, string>();
  for (const [key, value] of raw) {
    if (key === 'xmlns') scope.set('', value);
    else if (key.startsWith('xmlns:')) scope.set(key.slice(6), value);
    else attributes.set(key.includes(':') ? key.slice(key.indexOf(':') + 1) : key, value);
  }
  const { name, namespace } = resolveName(qualified, scope);
  return { element: { name, namespace, attributes, children: [], text: '', start: at, end: -1, scope }, next, selfClosing: end[1] === '/', qualified };
}

/** The document element of `source`. */
function parseXml(source: string): XmlElement {
  let at = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: { element: XmlElement; qualified: string }[] = [];
  let root: XmlElement | undefined;
  let count = 0;
  while (at < source.length) {
    const lt = source.indexOf('<', at);
    const text = source.slice(at, lt < 0 ? source.length : lt);
    const open = stack[stack.length - 1];
    if (open) open.element.text += decodeEntities(text);
    else if (text.trim()) fail('text outside the document element');
    if (lt < 0) break;
    if (source.startsWith('<!--', lt)) at = skipPast(source, lt + 4, '-->', 'comment');
    else if (source.startsWith('<![CDATA[', lt)) {
      if (!open) fail('CDATA outside the document element');
      at = skipPast(source, lt + 9, ']]>', 'CDATA section');
      open!.element.text += source.slice(lt + 9, at - 3);
    } else if (source.startsWith('<!', lt)) fail('a DOCTYPE or ENTITY declaration (refused)');
    else if (source.startsWith('<?', lt)) at = skipPast(source, lt + 2, '?>', 'processing instruction');
    else if (source.startsWith('</', lt)) {
      const nameMatch = sticky(NAME, source, lt + 2);
      if (!open || nameMatch?.[0] !== open.qualified) fail('an end tag that does not match its start tag');
      const close = sticky(CLOSE_TAG_END, source, lt + 2 + open!.qualified.length) ?? fail('a malformed end tag');
      at = lt + 2 + open!.qualified.length + close[0].length;
      open!.element.end = at;
      stack.pop();
    } else {
      if (root && !open) fail('more than one document element');
      if (++count > MAX_ELEMENTS) fail('too many elements');
      const tag = startTag(source, lt, open?.element.scope ?? new Map<string, string>());
      if (open) open.element.children.push(tag.element);
      else root = tag.element;
      at = tag.next;
      if (tag.selfClosing) tag.element.end = at;
      else if (stack.push({ element: tag.element, qualified: tag.qualified }) > MAX_DEPTH) fail('elements nested too deep');
    }
  }
  if (stack.length) fail('an element is not closed');
  return root ?? fail('no document element');
}

// ---------------------------------------------------------------- reading CBEFF

const child = (element: XmlElement | undefined, name: string) => element?.children.find((each) => each.name === name);
const textOf = (element: XmlElement | undefined) => element?.text.trim() ?? '';

function integerOf(element: XmlElement | undefined, what: string): number | undefined {
  if (!element) return undefined;
  const text = textOf(element);
  if (!/^\d{1,9}$/.test(text)) throw new PacketFormatError(`a BIR has a ${what} that is not a whole number`);
  return Number(text);
}

/** Standard base64 as ABIS.md (d) says; MOSIP clients also write the URL-safe alphabet, so both are read. */
function decodeBdb(element: XmlElement | undefined): Buffer | null {
  const text = (element?.text ?? '').replace(/\s+/g, '');
  if (!text) return null;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text) || text.length % 4 === 1) throw new PacketFormatError('a BIR has a BDB that is not base64');
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

const isException = (bir: XmlElement) =>
  (child(bir, 'others')?.children ?? []).some(
    (entry) => entry.name === 'entry' && entry.attributes.get('key') === 'EXCEPTION' && /^true$/i.test(textOf(entry)),
  );

function parseBir(bir: XmlElement): ParsedBir {
  const info = child(bir, 'BDBInfo') ?? fail('a BIR has no BDBInfo');
  const type = textOf(child(info, 'Type'));
  if (!(BIOMETRIC_TYPES as readonly string[]).includes(type)) throw new PacketFormatError('a BIR has a missing or unknown biometric Type');
  const formatType = integerOf(child(child(info, 'Format'), 'Type'), 'Format Type') ?? fail('a BIR has no Format Type');
  const quality = integerOf(child(child(info, 'Quality'), 'Score'), 'Quality Score');
  return {
    type: type as BiometricType,
    subtype: textOf(child(info, 'Subtype')).replace(/\s+/g, ' '),
    formatType,
    bdb: decodeBdb(child(bir, 'BDB')),
    exception: isException(bir),
    ...(quality === undefined ? {} : { quality }),
  };
}

function decodeDocument(xml: Buffer | string): string {
  if (typeof xml === 'string') return xml;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(xml);
  } catch {
    throw new PacketFormatError('the CBEFF is not UTF-8');
  }
}

/** The root BIR and its nested BIRs. */
function readDocument(xml: Buffer | string): { source: string; birs: XmlElement[] } {
  const source = decodeDocument(xml);
  const root = parseXml(source);
  if (root.name !== 'BIR' || root.namespace !== CBEFF_NAMESPACE) throw new PacketFormatError(`the CBEFF root is not a BIR in the namespace ${CBEFF_NAMESPACE}`);
  return { source, birs: root.children.filter((each) => each.name === 'BIR') };
}

/** Every nested BIR; throws PacketFormatError when the document is not CBEFF of this shape. */
export function parseCbeff(xml: Buffer | string): ParsedCbeff {
  return { birs: readDocument(xml).birs.map(parseBir) };
}

/**
 * The same document without its exception BIRs (what the ABIS share serves,
 * MOSIP's filterExceptionBiometrics): the other bytes are kept as they are,
 * so the BIRs left over are exactly those the client signed and hashed.
 */
export function withoutExceptions(xml: Buffer | string): Buffer {
  const { source, birs } = readDocument(xml);
  let result = '';
  let from = 0;
  for (const bir of birs) {
    if (!isException(bir)) continue;
    // Also drop the indentation before the BIR and the line break after it.
    let lineStart = bir.start;
    while (lineStart > from && (source[lineStart - 1] === ' ' || source[lineStart - 1] === '\t')) lineStart--;
    result += source.slice(from, lineStart);
    from = source.startsWith('\n', bir.end) ? bir.end + 1 : bir.end;
  }
  return Buffer.from(result + source.slice(from), 'utf8');
}

/** Hex SHA-256 of each decoded BDB of a biometric that was captured: the key mock ABIS dedupes on. */
export function bdbDigests(parsed: ParsedCbeff): string[] {
  return parsed.birs.filter((bir) => !bir.exception && bir.bdb?.length).map((bir) => createHash('sha256').update(bir.bdb!).digest('hex'));
}
