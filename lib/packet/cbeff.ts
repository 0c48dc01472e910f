import { createHash, randomUUID } from 'node:crypto';
import { SaxesParser } from 'saxes';
import { PacketFormatError } from './errors.js';

/**
 * CBEFF XML (ISO 19785-3, patron 257) as ABIS.md (d) shows it: a root BIR
 * holding one nested BIR per biometric. Read with saxes (a maintained, strict,
 * streaming XML parser), configured for hostile input: namespaces on; any
 * DOCTYPE refused as soon as it is read (saxes itself never expands an entity
 * a DTD declares nor fetches anything); only the predefined entities and
 * character references decoded; depth, element count, attribute and text
 * sizes capped (CBEFF_LIMITS). saxes reads one character at a time with no
 * backtracking: linear in the input.
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

// ---------------------------------------------------------------- the XML, read by saxes

interface XmlElement {
  /** local name, prefix removed */
  name: string;
  namespace: string | undefined;
  /** by local name; namespace declarations left out */
  attributes: Map<string, string>;
  children: XmlElement[];
  text: string;
  /** offsets in the source string: from "<" of the start tag to after ">" of the end tag */
  start: number;
  end: number;
}

/**
 * What a CBEFF may hold: depth and elements as before; a short attribute (a
 * namespace, an entry's key); one element's text at most a BDB in base64 (12
 * MiB of image). No construct (a text, a tag, a comment, a declaration) may
 * run longer than a text: the parser is fed in chunks and stops at the first
 * chunk past that, without reading the construct to its end.
 */
export const CBEFF_LIMITS = { maxDepth: 32, maxElements: 200_000, maxAttributeChars: 4096, maxTextChars: 16 * 1024 * 1024 } as const;
const CHUNK_CHARS = 64 * 1024;
/** room for the markup around a text of the largest size */
const RUN_ON_SLACK_CHARS = 64 * 1024;
const XMLNS_URI = 'http://www.w3.org/2000/xmlns/';

const fail = (message: string): never => {
  throw new PacketFormatError(`the CBEFF is not well-formed XML: ${message}`);
};

/** saxes' messages, by their start, in this platform's words (which name no value from the document). */
const SAXES_MESSAGES: readonly [RegExp, string][] = [
  [/^(?:incorrect syntax|inappropriately located doctype)/, 'a DOCTYPE or ENTITY declaration (refused)'],
  [/^(?:undefined entity|malformed character entity)/, 'an unknown entity reference'],
  [/^(?:disallowed character in entity name|empty entity name)/, 'a bare & or a malformed entity reference'],
  [/^unexpected close tag/, 'an end tag that does not match its start tag'],
  [/^(?:unclosed tag|unexpected end)/, 'an element is not closed'],
  [/^documents may contain only one root/, 'more than one document element'],
  [/^document must contain a root element/, 'no document element'],
  [/^text data outside of root node/, 'text outside the document element'],
  [/^unbound namespace prefix/, 'an undeclared namespace prefix'],
];
const BARE_AMPERSAND = /&(?!(?:[A-Za-z_:][\w.:-]*|#[0-9]+|#x[0-9A-Fa-f]+);)/;

/** Our words for a saxes error; a bare "&" swallows the rest (saxes reads a name up to ";") and looks like an open element. */
function describeSaxesError(error: Error, source: string, readUpTo: number): string {
  const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
  const known = SAXES_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
  if (known === 'an element is not closed' && BARE_AMPERSAND.test(source.slice(readUpTo))) return 'a bare & or a malformed entity reference';
  // Others keep saxes' words up to any ":" (after which it may quote the document).
  return known ?? message.split(':')[0]!.replace(/\.$/, '');
}

/**
 * The document element of `source`, read by saxes (strict, non-validating,
 * streaming; it throws its errors): namespaces resolved, only the predefined
 * entities and character references decoded. A DOCTYPE is refused once read,
 * any other "<!" declaration is an error: no entity is defined, expanded or
 * fetched. Six handlers at most: V8 turns a parser given more (saxes stores
 * them as properties) into a slow dictionary, 300 ms instead of 40 for 10 MB.
 */
function parseXml(source: string): XmlElement {
  const limits = CBEFF_LIMITS;
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let count = 0;
  // where the last construct saxes reported ends
  let readUpTo = 0;
  const mark = () => void (readUpTo = parser.position);
  parser.on('doctype', () => fail('a DOCTYPE or ENTITY declaration (refused)'));
  parser.on('comment', mark);
  parser.on('opentag', (tag) => {
    mark();
    if (++count > limits.maxElements) fail('too many elements');
    if (stack.length >= limits.maxDepth) fail('elements nested too deep');
    const attributes = new Map<string, string>();
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.value.length > limits.maxAttributeChars) fail(`an attribute value is longer than ${limits.maxAttributeChars} characters`);
      if (attribute.uri !== XMLNS_URI) attributes.set(attribute.local, attribute.value);
    }
    // saxes has just read the tag's ">"; no "<" occurs inside a tag, so the last "<name" is its start.
    const start = source.lastIndexOf(`<${tag.name}`, parser.position);
    const element: XmlElement = { name: tag.local, namespace: tag.uri || undefined, attributes, children: [], text: '', start, end: -1 };
    if (stack.length) stack[stack.length - 1]!.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => {
    mark();
    stack.pop()!.end = parser.position;
  });
  const text = (chunk: string) => {
    mark();
    const open = stack[stack.length - 1];
    if (open && open.text.length + chunk.length > limits.maxTextChars) fail(`an element's text is longer than ${limits.maxTextChars} characters`);
    if (open) open.text += chunk;
  };
  parser.on('text', text);
  parser.on('cdata', text);
  try {
    for (let at = 0; at < source.length; at += CHUNK_CHARS) {
      parser.write(source.slice(at, at + CHUNK_CHARS));
      if (parser.position - readUpTo > limits.maxTextChars + RUN_ON_SLACK_CHARS)
        fail(`a text, tag, comment or declaration is longer than ${limits.maxTextChars} characters`);
    }
    parser.close();
  } catch (error) {
    if (error instanceof PacketFormatError) throw error;
    fail(describeSaxesError(error as Error, source, readUpTo));
  }
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
