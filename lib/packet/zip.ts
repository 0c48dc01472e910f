import { crc32, createInflateRaw, deflateRawSync } from 'node:zlib';
import { PacketFormatError } from './errors.js';

/**
 * The subset of ZIP (APPNOTE 6.3) that registration packets need, with
 * node:zlib only: deflated entries written, stored and deflated entries read.
 * Reading assumes hostile input: every offset is bounds-checked, names are
 * checked before anything is inflated, declared sizes are capped (absolutely
 * and by a ratio to the zip's size) so a bomb fails without allocating, and
 * inflation runs on zlib's thread pool in chunks, off the event loop.
 *
 * Kept, not replaced by a maintained reader (docs/decisions.md, each point
 * with its test in test/unit/packet-zip.test.ts): yauzl 3.4.0 (fromBuffer,
 * lazyEntries, validateEntrySizes, strictFileNames, decodeStrings off), these
 * checks layered on its entries and its messages mapped, passes every test but
 * one that no layer can fix: it refuses a valid zip whose comment holds the
 * end-record signature. It lacks, so this file would keep them anyway:
 * CRC-32 checks; overlapping entries (the non-recursive bomb); refusing ZIP64
 * (it reads it, unflagged); duplicate names, also by case; NUL, empty or "."
 * segments, strict UTF-8 names (it decodes CP437, prefers a Unicode Path
 * extra field to the name); a local header naming another file; a directory
 * entry with data; caps on declared sizes and entry count before inflating.
 */

/** More entries than any packet holds (ID.json, a CBEFF or two, documents, metadata). */
export const MAX_ZIP_ENTRIES = 1000;

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const LOCAL_HEADER_SIZE = 30;
const CENTRAL_HEADER_SIZE = 46;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;
/** General purpose flags: bit 0 encrypted, bit 6 strong encryption, bit 11 UTF-8 names. */
const FLAG_ENCRYPTED = 0x0001;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_UTF8 = 0x0800;
/** 2.0: deflate; what every reader handles. */
const VERSION_NEEDED = 20;

export interface ZipEntry {
  name: string;
  data: Buffer;
}

export interface ZipWriteOptions {
  /** the entries' modification time (DOS time, UTC); now by default */
  modified?: Date;
}

export interface ZipReadLimits {
  /** the most bytes all entries may inflate to together */
  maxUncompressedBytes: number;
  /** all entries may inflate to at most this many times the zip's size (never less than INFLATION_FLOOR_BYTES); unset: no ratio */
  maxInflationRatio?: number;
}

/** Below this the ratio never refuses: a few small JSON files zip to a few hundred bytes, and their ratio says nothing of a bomb. */
export const INFLATION_FLOOR_BYTES = 1024 * 1024;

/** Inflation output per thread-pool round trip: few round trips for a large entry, a liar caught within one chunk past its size. */
const INFLATE_CHUNK_BYTES = 256 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Why a name is unsafe, or undefined: names are a packet's keys and may become paths, so anything
 * that could climb out of a folder or be read two ways (backslashes, NUL, drive letters) is out.
 */
export function zipNameProblem(name: string): string | undefined {
  if (!name) return 'an entry has an empty name';
  if (name.length > 255) return 'an entry name is longer than 255 characters';
  if (name.includes('\0')) return 'an entry name contains NUL';
  if (name.includes('\\')) return 'an entry name contains a backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an entry name is an absolute path';
  // A trailing slash marks a directory; any other empty segment, "." or ".." is refused.
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.some((segment) => segment === '..')) return 'an entry name climbs out of the archive (..)';
  if (segments.some((segment) => segment === '' || segment === '.')) return 'an entry name has an empty or "." segment';
  return undefined;
}

/** MS-DOS date and time, two 16-bit words; UTC so that the same input gives the same bytes anywhere. */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getUTCFullYear(), 1980), 2107);
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** Writes every entry deflated, names flagged UTF-8, in the given order. */
export function writeZip(entries: readonly ZipEntry[], options: ZipWriteOptions = {}): Buffer {
  if (entries.length > MAX_ZIP_ENTRIES) throw new PacketFormatError(`a zip holds at most ${MAX_ZIP_ENTRIES} entries`);
  const stamp = dosDateTime(options.modified ?? new Date());
  const seen = new Set<string>();
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const problem = zipNameProblem(entry.name);
    if (problem) throw new PacketFormatError(problem);
    if (seen.has(entry.name)) throw new PacketFormatError(`the entry name ${entry.name} is used twice`);
    seen.add(entry.name);
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data);
    if (entry.data.length > 0xfffffffe || offset > 0xfffffffe) throw new PacketFormatError('the zip would need ZIP64, which this writer does not produce');
    const checksum = crc32(entry.data);
    const local = Buffer.alloc(LOCAL_HEADER_SIZE);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(FLAG_UTF8, 6);
    local.writeUInt16LE(DEFLATED, 8);
    local.writeUInt16LE(stamp.time, 10);
    local.writeUInt16LE(stamp.date, 12);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26); // extra field length (28) stays 0
    const central = Buffer.alloc(CENTRAL_HEADER_SIZE);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(VERSION_NEEDED, 4); // made by: MS-DOS, 2.0
    // Both headers share the fields from "version needed" to the name length.
    local.copy(central, 6, 4, 28);
    central.writeUInt32LE(offset, 42); // extra, comment, disk, attributes (30..41) stay 0
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(EOCD_SIZE);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The end of central directory record: the last signature whose comment length reaches exactly the end of the file. */
function findEndOfCentralDirectory(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - EOCD_SIZE - MAX_COMMENT);
  for (let at = zip.length - EOCD_SIZE; at >= lowest; at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY && at + EOCD_SIZE + zip.readUInt16LE(at + 20) === zip.length) return at;
  }
  throw new PacketFormatError('not a zip file: no end of central directory record');
}

type CentralEntry = { name: string; method: number; crc: number; compressedSize: number; size: number; localOffset: number; dataStart: number };

function decodeName(bytes: Buffer, flags: number): string {
  // Without the UTF-8 flag a name is CP437; only its ASCII subset is read the same way by every tool.
  if (!(flags & FLAG_UTF8) && bytes.some((byte) => byte > 0x7e)) throw new PacketFormatError('an entry name is neither ASCII nor flagged UTF-8');
  try {
    return utf8.decode(bytes);
  } catch {
    throw new PacketFormatError('an entry name is not valid UTF-8');
  }
}

function readCentralDirectory(zip: Buffer, eocd: number): CentralEntry[] {
  const disk = zip.readUInt16LE(eocd + 4);
  const directoryDisk = zip.readUInt16LE(eocd + 6);
  const onDisk = zip.readUInt16LE(eocd + 8);
  const total = zip.readUInt16LE(eocd + 10);
  const directorySize = zip.readUInt32LE(eocd + 12);
  const directoryOffset = zip.readUInt32LE(eocd + 16);
  if (total === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff || (eocd >= 20 && zip.readUInt32LE(eocd - 20) === ZIP64_LOCATOR))
    throw new PacketFormatError('ZIP64 archives are not supported');
  if (disk !== 0 || directoryDisk !== 0 || onDisk !== total) throw new PacketFormatError('multi-volume zip archives are not supported');
  if (total > MAX_ZIP_ENTRIES) throw new PacketFormatError(`the zip has ${total} entries, more than ${MAX_ZIP_ENTRIES}`);
  if (directoryOffset + directorySize > eocd) throw new PacketFormatError('the central directory lies outside the file');
  const entries: CentralEntry[] = [];
  const names = new Set<string>();
  let at = directoryOffset;
  for (let index = 0; index < total; index++) {
    if (at + CENTRAL_HEADER_SIZE > directoryOffset + directorySize || zip.readUInt32LE(at) !== CENTRAL_HEADER)
      throw new PacketFormatError('the central directory is truncated or corrupt');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const nameLength = zip.readUInt16LE(at + 28);
    const recordEnd = at + CENTRAL_HEADER_SIZE + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (recordEnd > directoryOffset + directorySize) throw new PacketFormatError('the central directory is truncated or corrupt');
    const name = decodeName(zip.subarray(at + CENTRAL_HEADER_SIZE, at + CENTRAL_HEADER_SIZE + nameLength), flags);
    const problem = zipNameProblem(name);
    if (problem) throw new PacketFormatError(problem);
    // Case-insensitive: ID.json and id.json would be one file on some systems and two on others.
    if (names.has(name.toLowerCase())) throw new PacketFormatError(`the entry name ${name} occurs twice`);
    names.add(name.toLowerCase());
    if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) throw new PacketFormatError(`the entry ${name} is encrypted`);
    if (method !== STORED && method !== DEFLATED)
      throw new PacketFormatError(`the entry ${name} uses compression method ${method}; only stored and deflated are read`);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const localOffset = zip.readUInt32LE(at + 42);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) throw new PacketFormatError('ZIP64 archives are not supported');
    entries.push({ name, method, crc: zip.readUInt32LE(at + 16), compressedSize, size, localOffset, dataStart: localDataStart(zip, localOffset, name) });
    at = recordEnd;
  }
  return entries;
}

/** Where an entry's data starts, after its local header; the local name must be the central one. */
function localDataStart(zip: Buffer, offset: number, name: string): number {
  if (offset + LOCAL_HEADER_SIZE > zip.length || zip.readUInt32LE(offset) !== LOCAL_HEADER)
    throw new PacketFormatError(`the local header of ${name} is missing or corrupt`);
  const nameLength = zip.readUInt16LE(offset + 26);
  const start = offset + LOCAL_HEADER_SIZE + nameLength + zip.readUInt16LE(offset + 28);
  if (start > zip.length || !zip.subarray(offset + LOCAL_HEADER_SIZE, offset + LOCAL_HEADER_SIZE + nameLength).equals(Buffer.from(name, 'utf8')))
    throw new PacketFormatError(`the local header of ${name} does not match the central directory`);
  return start;
}

/**
 * Entries must not overlap one another nor the central directory: overlapping
 * entries are how non-recursive zip bombs multiply one compressed block.
 */
function checkLayout(entries: CentralEntry[], directoryOffset: number): void {
  const sorted = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  sorted.forEach((entry, index) => {
    const limit = sorted[index + 1]?.localOffset ?? directoryOffset;
    if (entry.dataStart + entry.compressedSize > limit) throw new PacketFormatError(`the data of ${entry.name} overlaps another entry or the directory`);
  });
}

/** Inflates on zlib's thread pool into a buffer of the declared size: one byte more, or less, and the entry is refused. */
function inflateDeflated(raw: Buffer, entry: CentralEntry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Allocated once: the declared sizes were checked against the limits.
    const data = Buffer.allocUnsafe(entry.size);
    let filled = 0;
    let crc = 0;
    const inflater = createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES });
    const refuse = (message: string) => {
      inflater.destroy();
      reject(new PacketFormatError(message));
    };
    const wrongSize = () => refuse(`the entry ${entry.name} does not inflate to its declared size`);
    inflater.on('data', (chunk: Buffer) => {
      if (filled + chunk.length > data.length) {
        wrongSize();
        return;
      }
      chunk.copy(data, filled);
      filled += chunk.length;
      crc = crc32(chunk, crc);
    });
    inflater.once('error', wrongSize);
    inflater.once('end', () => {
      if (filled !== data.length) wrongSize();
      else if (crc !== entry.crc) refuse(`the entry ${entry.name} fails its CRC check`);
      else resolve(data);
    });
    inflater.end(raw);
  });
}

async function readEntry(zip: Buffer, entry: CentralEntry): Promise<Buffer> {
  const raw = zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  if (entry.method === DEFLATED) return inflateDeflated(raw, entry);
  if (entry.compressedSize !== entry.size) throw new PacketFormatError(`the stored entry ${entry.name} has two different sizes`);
  const data = Buffer.from(raw);
  if (crc32(data) !== entry.crc) throw new PacketFormatError(`the entry ${entry.name} fails its CRC check`);
  return data;
}

/** How many bytes the entries of this zip may inflate to together. */
export function inflationLimit(zipBytes: number, limits: ZipReadLimits): number {
  if (limits.maxInflationRatio === undefined) return limits.maxUncompressedBytes;
  return Math.min(limits.maxUncompressedBytes, Math.max(INFLATION_FLOOR_BYTES, limits.maxInflationRatio * zipBytes));
}

/**
 * Reads every file entry, in central directory order (directory entries are
 * skipped). Rejects with PacketFormatError on anything unsafe or
 * inconsistent; a bomb is refused from its declared sizes, before any
 * inflation.
 */
export async function readZip(zip: Buffer, limits: ZipReadLimits): Promise<ZipEntry[]> {
  if (zip.length < EOCD_SIZE) throw new PacketFormatError('not a zip file: too short');
  const eocd = findEndOfCentralDirectory(zip);
  const entries = readCentralDirectory(zip, eocd);
  checkLayout(entries, zip.readUInt32LE(eocd + 16));
  const declared = entries.reduce((sum, entry) => sum + entry.size, 0);
  const limit = inflationLimit(zip.length, limits);
  if (declared > limit) {
    const byRatio =
      limit < limits.maxUncompressedBytes ? ` (${limits.maxInflationRatio} times the zip's ${zip.length} bytes, at least ${INFLATION_FLOOR_BYTES})` : '';
    throw new PacketFormatError(`the zip inflates to ${declared} bytes, more than the limit of ${limit}${byRatio}`);
  }
  for (const entry of entries) if (entry.name.endsWith('/') && entry.size !== 0) throw new PacketFormatError(`the directory entry ${entry.name} has content`);
  const files: ZipEntry[] = [];
  // One entry at a time: at most one inflation of this zip holds a thread of the pool.
  for (const entry of entries) if (!entry.name.endsWith('/')) files.push({ name: entry.name, data: await readEntry(zip, entry) });
  return files;
}
