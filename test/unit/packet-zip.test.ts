import { randomBytes } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PacketFormatError } from '../../lib/packet/errors.js';
import { packetProblems, readPacketZip } from '../../lib/packet/format.js';
import { buildPacketZip } from '../../lib/packet/write.js';
import { sampleResident } from '../../tools/registration/sample-resident.js';
import { INFLATION_FLOOR_BYTES, MAX_ZIP_ENTRIES, readZip, writeZip, type ZipReadLimits } from '../../lib/packet/zip.js';

const LIMIT = { maxUncompressedBytes: 10 * 1024 * 1024 };

interface RawEntry {
  name: string;
  data: Buffer;
  method?: number;
  flags?: number;
  /** what the headers declare; the real values by default */
  crc?: number;
  size?: number;
  /** the bytes stored; data deflated (method 8) or as is (method 0) by default */
  raw?: Buffer;
  /** where the central directory says the local header is; the real offset by default */
  offset?: number;
}

/**
 * A zip written by hand, field by field (APPNOTE 4.3.7 and 4.3.12), so that
 * the reader is tested against archives its own writer would never make.
 */
function rawZip(entries: RawEntry[], options: { comment?: string; totalEntries?: number } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const method = entry.method ?? 8;
    const raw = entry.raw ?? (method === 8 ? deflateRawSync(entry.data) : entry.data);
    const name = Buffer.from(entry.name, 'utf8');
    const fields = Buffer.alloc(26);
    fields.writeUInt16LE(20, 0); // version needed
    fields.writeUInt16LE(entry.flags ?? 0x0800, 2);
    fields.writeUInt16LE(method, 4);
    fields.writeUInt32LE(entry.crc ?? crc32(entry.data), 10);
    fields.writeUInt32LE(raw.length, 14);
    fields.writeUInt32LE(entry.size ?? entry.data.length, 18);
    fields.writeUInt16LE(name.length, 22);
    const local = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), fields, name, raw]);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    fields.copy(central, 6);
    central.writeUInt32LE(entry.offset ?? offset, 42);
    locals.push(local);
    centrals.push(central, name);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const comment = Buffer.from(options.comment ?? '', 'utf8');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(options.totalEntries ?? entries.length, 8);
  end.writeUInt16LE(options.totalEntries ?? entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...locals, directory, end, comment]);
}

const refused = async (zip: Buffer, message: RegExp, limits: ZipReadLimits = LIMIT) => {
  const error: unknown = await readZip(zip, limits).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PacketFormatError);
  expect((error as Error).message).toMatch(message);
};

describe('writing and reading zips', () => {
  it('round-trips entries in order: empty, binary, compressible, a UTF-8 name', async () => {
    const entries = [
      { name: 'ID.json', data: Buffer.from(JSON.stringify({ identity: { fullName: 'x' } })) },
      { name: 'empty.txt', data: Buffer.alloc(0) },
      { name: 'random.bin', data: Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251)) },
      { name: 'zeros.bin', data: Buffer.alloc(100_000) },
      { name: 'docs/justificatif-domicile-é.pdf', data: Buffer.from('%PDF-1.4\n') },
    ];
    const zip = writeZip(entries, { modified: new Date('2026-03-04T05:06:08Z') });
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    // deflated: the zeros take far less room than they inflate to
    expect(zip.length).toBeLessThan(20_000);
    expect(await readZip(zip, LIMIT)).toEqual(entries);
    // the same input gives the same bytes (DOS time in UTC)
    expect(writeZip(entries, { modified: new Date('2026-03-04T05:06:08Z') })).toEqual(zip);
  });

  it('reads stored and deflated entries written by another writer, with a trailing archive comment', async () => {
    const zip = rawZip(
      [
        { name: 'stored.txt', data: Buffer.from('stored as is'), method: 0 },
        { name: 'deflated.txt', data: Buffer.from('deflated '.repeat(50)) },
      ],
      { comment: 'made by hand; PK\x05\x06 inside the comment does not confuse the reader' },
    );
    expect((await readZip(zip, LIMIT)).map((entry) => [entry.name, entry.data.toString()])).toEqual([
      ['stored.txt', 'stored as is'],
      ['deflated.txt', 'deflated '.repeat(50)],
    ]);
  });

  it('skips empty directory entries', async () => {
    const zip = rawZip([
      { name: 'docs/', data: Buffer.alloc(0), method: 0 },
      { name: 'docs/a.txt', data: Buffer.from('a') },
    ]);
    expect((await readZip(zip, LIMIT)).map((entry) => entry.name)).toEqual(['docs/a.txt']);
  });

  it('refuses to write unsafe or repeated names', () => {
    expect(() => writeZip([{ name: '../x', data: Buffer.alloc(1) }])).toThrow(PacketFormatError);
    expect(() =>
      writeZip([
        { name: 'a', data: Buffer.alloc(1) },
        { name: 'a', data: Buffer.alloc(1) },
      ]),
    ).toThrow(/twice/);
  });
});

describe('reading hostile zips', () => {
  const one = (entry: Partial<RawEntry> & { name: string }) => rawZip([{ data: Buffer.from('content'), ...entry }]);

  it('refuses names that climb out, are absolute, use backslashes or NUL', async () => {
    for (const name of ['../evil.sh', 'docs/../../etc/passwd', '..']) await refused(one({ name }), /climbs out/);
    for (const name of ['/etc/passwd', 'C:/Windows/evil.dll', 'c:evil']) await refused(one({ name }), /absolute/);
    await refused(one({ name: 'docs\\..\\evil' }), /backslash/);
    await refused(one({ name: 'ID.json\0.txt' }), /NUL/);
    await refused(one({ name: 'a//b' }), /empty or "\." segment/);
    // a name that is not UTF-8 although flagged so, and a high byte without the flag
    const zip = one({ name: 'nameX' });
    await refused(Buffer.from(zip.toString('latin1').replaceAll('nameX', 'name\xff'), 'latin1'), /not valid UTF-8/);
    await refused(one({ name: 'é', flags: 0 }), /neither ASCII nor flagged UTF-8/);
  });

  it('refuses duplicate names, exact or differing in case only', async () => {
    await refused(
      rawZip([
        { name: 'ID.json', data: Buffer.from('{}') },
        { name: 'ID.json', data: Buffer.from('{"other":1}') },
      ]),
      /occurs twice/,
    );
    await refused(
      rawZip([
        { name: 'ID.json', data: Buffer.from('{}') },
        { name: 'id.JSON', data: Buffer.from('{}') },
      ]),
      /occurs twice/,
    );
  });

  it('refuses compression methods other than stored and deflated, and encrypted entries', async () => {
    await refused(one({ name: 'a.txt', method: 12, raw: Buffer.from('BZh91AY&SY') }), /compression method 12/);
    await refused(one({ name: 'a.txt', method: 99 }), /compression method 99/);
    await refused(one({ name: 'a.txt', flags: 0x0801 }), /encrypted/);
    await refused(one({ name: 'a.txt', flags: 0x0840 }), /encrypted/);
  });

  it('refuses a CRC mismatch, in stored and deflated entries', async () => {
    await refused(one({ name: 'a.txt', crc: (crc32(Buffer.from('content')) ^ 1) >>> 0 }), /CRC/);
    await refused(one({ name: 'a.txt', method: 0, crc: 0 }), /CRC/);
    // a flipped byte in the stored data
    const zip = one({ name: 'a.txt', method: 0 });
    const at = zip.indexOf('content') + 2;
    zip.writeUInt8(zip[at]! ^ 0x20, at);
    await refused(zip, /CRC/);
  });

  it('refuses a zip bomb whose declared size is over the limit, before inflating', async () => {
    const bomb = Buffer.alloc(64 * 1024 * 1024);
    const zip = one({ name: 'bomb.bin', data: bomb });
    expect(zip.length).toBeLessThan(100_000);
    await refused(zip, /inflates to 67108864 bytes, more than the limit of 10485760/);
    // many small entries add up too
    const many = rawZip(Array.from({ length: 20 }, (_, i) => ({ name: `part${i}`, data: Buffer.alloc(600_000) })));
    await refused(many, /more than the limit/);
  });

  it('refuses an entry that inflates beyond its declared size without inflating it all', async () => {
    // declares 1 KiB, holds 64 MiB of zeros: inflation stops at the declared size
    await refused(one({ name: 'liar.bin', data: Buffer.alloc(64 * 1024 * 1024), size: 1024, crc: 0 }), /does not inflate to its declared size/);
    await refused(one({ name: 'short.bin', data: Buffer.from('abc'), size: 10 }), /does not inflate to its declared size/);
    await refused(one({ name: 'garbage.bin', raw: Buffer.from([0xff, 0xff, 0xff, 0xff]) }), /does not inflate/);
    await refused(one({ name: 'stored.bin', method: 0, size: 3 }), /two different sizes/);
  });

  it(`refuses more than ${MAX_ZIP_ENTRIES} entries, and reads exactly ${MAX_ZIP_ENTRIES}`, async () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, data: Buffer.from([i & 0xff]), method: 0 }));
    expect(await readZip(rawZip(entries(MAX_ZIP_ENTRIES)), LIMIT)).toHaveLength(MAX_ZIP_ENTRIES);
    await refused(rawZip(entries(MAX_ZIP_ENTRIES + 1)), /1001 entries, more than 1000/);
  });

  it('refuses entries whose data overlap (the non-recursive zip bomb)', async () => {
    // The first entry's stored data holds a whole second entry; the directory points into it.
    const inner = rawZip([{ name: 'b', data: Buffer.from('inner'), method: 0 }]);
    const innerLocal = inner.subarray(0, 30 + 1 + 5);
    const zip = rawZip([
      { name: 'a', data: innerLocal, method: 0 },
      { name: 'b', data: Buffer.from('inner'), method: 0, offset: 30 + 1 },
    ]);
    await refused(zip, /overlaps/);
  });

  it('refuses a local header that names another file than the central directory, and a directory entry with content', async () => {
    // Readers that trust the local header (streaming unzippers) would see b.txt where this reader sees a.txt.
    const zip = rawZip([{ name: 'a.txt', data: Buffer.from('hello') }]);
    expect(zip.toString('latin1', 30, 35)).toBe('a.txt');
    zip.write('b', 30, 'latin1');
    await refused(zip, /the local header of a.txt does not match the central directory/);
    await refused(rawZip([{ name: 'docs/', data: Buffer.from('hidden'), method: 0 }]), /the directory entry docs\/ has content/);
  });

  it('refuses ZIP64, truncated archives and things that are not zips', async () => {
    await refused(rawZip([{ name: 'a', data: Buffer.from('a') }], { totalEntries: 0xffff }), /ZIP64/);
    await refused(Buffer.from('definitely not a zip file, just some text'), /no end of central directory/);
    await refused(Buffer.alloc(5), /too short/);
    const zip = rawZip([{ name: 'a.txt', data: Buffer.from('hello') }]);
    // the directory says there are two entries
    await refused(rawZip([{ name: 'a.txt', data: Buffer.from('hello') }], { totalEntries: 2 }), /truncated or corrupt/);
    // bytes after the end record (a comment longer than declared) are not ignored
    await refused(Buffer.concat([zip, Buffer.from('trailing')]), /no end of central directory/);
    // a local header offset past the end
    await refused(rawZip([{ name: 'a.txt', data: Buffer.from('hello'), offset: 10_000 }]), /local header of a.txt is missing or corrupt/);
  });
});

describe('inflation limits: a ratio to the zip, an absolute cap, off the event loop', () => {
  const MiB = 1024 * 1024;
  // The platform's defaults (REGPROC_MAX_INFLATED_BYTES, REGPROC_MAX_INFLATION_RATIO).
  const DEFAULTS: ZipReadLimits = { maxUncompressedBytes: 128 * MiB, maxInflationRatio: 100 };
  /** External memory (Buffers) grown since `before`: what an inflation would have allocated. */
  const buffersSince = (before: number) => process.memoryUsage().arrayBuffers - before;

  it('refuses a small zip that honestly declares a huge entry by the ratio, without allocating it', async () => {
    // 64 MiB of zeros deflate to about 64 KB: under the absolute cap, a thousand times the zip's size.
    const zeros = Buffer.alloc(64 * MiB);
    const zip = rawZip([{ name: 'bomb.bin', data: zeros }]);
    expect(zip.length).toBeLessThan(100_000);
    const before = process.memoryUsage().arrayBuffers;
    await refused(
      zip,
      new RegExp(`inflates to ${64 * MiB} bytes, more than the limit of ${100 * zip.length} \\(100 times the zip's ${zip.length} bytes`),
      DEFAULTS,
    );
    expect(buffersSince(before)).toBeLessThan(8 * MiB);
    // Not even a thread-pool round trip: data that does not inflate at all is refused by its declared size first.
    await refused(rawZip([{ name: 'bomb.bin', data: zeros, raw: Buffer.from([0xff, 0xff]) }]), /more than the limit of 1048576 \(100 times/, DEFAULTS);
  });

  it('refuses a zip under the ratio but over the absolute cap', async () => {
    // Random bytes do not compress: the ratio is about 1, only the cap stops it.
    const random = randomBytes(3 * MiB);
    const zip = rawZip([{ name: 'scan.jpg', data: random }]);
    expect(zip.length).toBeGreaterThan(2 * MiB);
    await refused(zip, new RegExp(`inflates to ${3 * MiB} bytes, more than the limit of ${2 * MiB}$`), {
      maxUncompressedBytes: 2 * MiB,
      maxInflationRatio: 100,
    });
    expect((await readZip(zip, { maxUncompressedBytes: 4 * MiB, maxInflationRatio: 100 }))[0]!.data).toEqual(random);
  });

  it('refuses an entry that declares a small size and inflates to more, stopping near its declared size', async () => {
    const zip = one64MiBLiar();
    expect(zip.length).toBeLessThan(100_000);
    const before = process.memoryUsage().arrayBuffers;
    await refused(zip, /the entry liar.bin does not inflate to its declared size/, DEFAULTS);
    // 64 MiB inflated whole would show here; a chunk or two past the declared 512 KiB is all that is allowed.
    expect(buffersSince(before)).toBeLessThan(8 * MiB);
  });

  it('opens a packet of the sample country; a tiny zip of JSON opens under the floor whatever its ratio', async () => {
    const resident = sampleResident('inflation-limits', { now: new Date('2026-11-25T06:00:00Z') });
    const packet = await readPacketZip(
      buildPacketZip({
        registrationId: '10001100010000120261125060000',
        centerId: '10001',
        machineId: '10001',
        creationDate: new Date('2026-11-25T06:00:00Z'),
        officerId: 'sample-officer',
        supervisorId: 'sample-supervisor',
        identity: resident.identity,
        cbeff: resident.cbeff,
        documents: resident.documents,
      }),
      DEFAULTS,
    );
    expect(packetProblems(packet)).toEqual([]);
    expect(packet.cbeff).toEqual(resident.cbeff);
    // 330 KB of repetitive JSON zips to a few KB, a ratio far past 100, and is still under the floor.
    const json = Buffer.from(JSON.stringify({ identity: { values: Array.from({ length: 30_000 }, () => 'repeated') } }));
    expect(json.length).toBeLessThan(INFLATION_FLOOR_BYTES);
    const zip = writeZip([{ name: 'ID.json', data: json }]);
    expect(json.length / zip.length).toBeGreaterThan(100);
    expect((await readZip(zip, DEFAULTS))[0]!.data).toEqual(json);
  });

  it('inflates off the event loop: timers run while a large entry inflates', async () => {
    const data = Buffer.alloc(96 * MiB, 'platform ');
    const zip = rawZip([{ name: 'large.bin', data }]);
    let last = performance.now();
    let ticks = 0;
    let longest = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 5);
    try {
      const [entry] = await readZip(zip, { maxUncompressedBytes: 128 * MiB });
      expect(entry!.data.equals(data)).toBe(true);
    } finally {
      clearInterval(timer);
    }
    // A synchronous inflation would let no timer run until it was done.
    expect(ticks).toBeGreaterThan(2);
    expect(longest).toBeLessThan(500);
  });
});

/** An entry declaring 512 KiB that holds 64 MiB of zeros, its CRC that of the real data. */
function one64MiBLiar(): Buffer {
  const data = Buffer.alloc(64 * 1024 * 1024);
  return rawZip([{ name: 'liar.bin', data, size: 512 * 1024 }]);
}
