import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bdbDigests, buildCbeff, CBEFF_NAMESPACE, parseCbeff, withoutExceptions, type BirInput } from '../../lib/packet/cbeff.js';
import { PacketFormatError } from '../../lib/packet/errors.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const BIRS: BirInput[] = [
  { type: 'Finger', subtype: 'Left IndexFinger', bdb: bytes('left index finger image'), quality: 90 },
  { type: 'Finger', subtype: 'Right Thumb', bdb: null, exception: true },
  { type: 'Iris', subtype: 'Left', bdb: bytes('left iris image'), quality: 75 },
  { type: 'Face', bdb: bytes('face image') },
  { type: 'Finger', subtype: 'Right IndexFinger', formatType: 2, bdb: bytes('minutiae'), quality: 61 },
];
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('building and parsing CBEFF (ABIS.md (d))', () => {
  it('builds the documented shape: root BIR in the ISO namespace, one nested BIR per biometric, format types 7/9/8', () => {
    const xml = buildCbeff(BIRS, new Date('2024-01-01T10:00:00.000Z')).toString('utf8');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<BIR xmlns="http://standards.iso.org/iso-iec/19785/-3/ed-2/">')).toBe(true);
    expect(xml.match(/<BIR>/g)).toHaveLength(5);
    expect(xml).toContain('<Format><Organization>Mosip</Organization><Type>7</Type></Format>');
    expect(xml).toContain('<Type>Finger</Type><Subtype>Left IndexFinger</Subtype>');
    expect(xml).toContain('<CreationDate>2024-01-01T10:00:00.000Z</CreationDate>');
    expect(xml).toContain('<Score>90</Score>');
    expect(xml).toContain(`<BDB>${bytes('left iris image').toString('base64')}</BDB>`);
    expect(xml).toContain('<others><entry key="EXCEPTION">true</entry></others>');
    // the face has no subtype, the exception no BDB
    expect(xml).toMatch(/<Type>Face<\/Type>\s*<Level>/);
    expect(xml.match(/<BDB>/g)).toHaveLength(4);
  });

  it('parses back what it builds', () => {
    expect(parseCbeff(buildCbeff(BIRS)).birs).toEqual([
      { type: 'Finger', subtype: 'Left IndexFinger', formatType: 7, bdb: bytes('left index finger image'), exception: false, quality: 90 },
      { type: 'Finger', subtype: 'Right Thumb', formatType: 7, bdb: null, exception: true },
      { type: 'Iris', subtype: 'Left', formatType: 9, bdb: bytes('left iris image'), exception: false, quality: 75 },
      { type: 'Face', subtype: '', formatType: 8, bdb: bytes('face image'), exception: false },
      { type: 'Finger', subtype: 'Right IndexFinger', formatType: 2, bdb: bytes('minutiae'), exception: false, quality: 61 },
    ]);
  });

  it('reads what other writers produce: prefixes, comments, CDATA, entities, wrapped and URL-safe base64, a BOM', () => {
    const bdb = Buffer.from([0xfb, 0xff, 0xfe, 0x01, 0x02]);
    const xml = `\ufeff<?xml version="1.0"?>
<!-- written by another client -->
<ns2:BIR xmlns:ns2="${CBEFF_NAMESPACE}" xmlns:x="urn:other">
  <ns2:BIR>
    <ns2:BDBInfo>
      <ns2:Format><ns2:Organization>Mosip</ns2:Organization><ns2:Type> 7 </ns2:Type></ns2:Format>
      <ns2:Type>Finger</ns2:Type>
      <ns2:Subtype>Left  &#x49;ndexFinger</ns2:Subtype>
      <ns2:Quality><ns2:Score>88</ns2:Score></ns2:Quality>
    </ns2:BDBInfo>
    <ns2:BDB>${bdb.toString('base64url').slice(0, 4)}
      ${bdb.toString('base64url').slice(4)}</ns2:BDB>
    <ns2:others><ns2:entry key='EXCEPTION'>false</ns2:entry><ns2:entry key="RETRIES">1 &amp; more</ns2:entry></ns2:others>
  </ns2:BIR>
  <ns2:BIR>
    <ns2:BDBInfo><ns2:Format><ns2:Type>9</ns2:Type></ns2:Format><ns2:Type>Iris</ns2:Type><ns2:Subtype>Right</ns2:Subtype></ns2:BDBInfo>
    <ns2:BDB><![CDATA[${bytes('iris').toString('base64')}]]></ns2:BDB>
  </ns2:BIR>
</ns2:BIR>`;
    expect(parseCbeff(bytes(xml)).birs).toEqual([
      { type: 'Finger', subtype: 'Left IndexFinger', formatType: 7, bdb, exception: false, quality: 88 },
      { type: 'Iris', subtype: 'Right', formatType: 9, bdb: bytes('iris'), exception: false },
    ]);
  });

  it('refuses what is not CBEFF of this shape, and any DTD', () => {
    const refuses = (xml: string | Buffer, message: RegExp) => {
      expect(() => parseCbeff(xml)).toThrow(PacketFormatError);
      expect(() => parseCbeff(xml)).toThrow(message);
    };
    const valid = buildCbeff(BIRS).toString('utf8');
    refuses(
      '<?xml version="1.0"?><!DOCTYPE BIR [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><BIR xmlns="http://standards.iso.org/iso-iec/19785/-3/ed-2/">&lol2;</BIR>',
      /DOCTYPE or ENTITY/,
    );
    refuses(valid.replace('<BIRInfo>', '<!ENTITY x SYSTEM "file:///etc/passwd"><BIRInfo>'), /DOCTYPE or ENTITY/);
    refuses(valid.replace('<BDB>', '<BDB>&xxe;'), /entity reference/);
    refuses(valid.replace('<BDB>', '<BDB>&'), /bare &/);
    refuses(valid.replace(CBEFF_NAMESPACE, 'urn:something-else'), /root is not a BIR in the namespace/);
    refuses('<BIR>no namespace</BIR>', /root is not a BIR in the namespace/);
    refuses(valid.replace('</BDBInfo>', '</BDBinfo>'), /end tag that does not match/);
    refuses(valid.slice(0, valid.lastIndexOf('</BIR>')), /not closed/);
    refuses(`${valid}<BIR/>`, /more than one document element/);
    refuses(valid.replace('<Type>Iris</Type>', '<Type>Palm</Type>'), /unknown biometric Type/);
    refuses(valid.replace('<Type>9</Type>', '<Type>nine</Type>'), /Format Type that is not a whole number/);
    refuses(valid.replace(/<BDB>[^<]+/, '<BDB>not base64!'), /BDB that is not base64/);
    refuses(valid.replace(/<BDBInfo>[\s\S]*?<\/BDBInfo>/, ''), /no BDBInfo/);
    refuses(valid.replace('<BIR>', '<p:BIR>').replace('</BIR>\n  <BIR>', '</p:BIR>\n  <BIR>'), /undeclared namespace prefix/);
    refuses(`${'<a>'.repeat(40)}${'</a>'.repeat(40)}`, /nested too deep/);
    refuses(Buffer.from([0x3c, 0x42, 0xff, 0x3e]), /not UTF-8/);
    refuses('', /no document element/);
    refuses('plain text', /text outside the document element/);
  });

  it('parses long hostile inputs in linear time (no backtracking on unterminated tags or attributes)', () => {
    const long = 2_000_000;
    const started = Date.now();
    for (const xml of [`<BIR ${' '.repeat(long)}`, `<BIR a="${'x'.repeat(long)}`, `<BIR>${'&amp'.repeat(long / 4)}`, `<!--${'-'.repeat(long)}`]) {
      expect(() => parseCbeff(xml)).toThrow(PacketFormatError);
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('what the ABIS receives', () => {
  it('withoutExceptions drops the exception BIRs and keeps every other byte', () => {
    const original = buildCbeff(BIRS);
    const filtered = withoutExceptions(original);
    const parsed = parseCbeff(filtered);
    expect(parsed.birs.map((bir) => bir.subtype)).toEqual(['Left IndexFinger', 'Left', '', 'Right IndexFinger']);
    expect(parsed.birs.every((bir) => !bir.exception)).toBe(true);
    // the original minus the one exception BIR, line by line
    const lines = original.toString('utf8').split('\n');
    const start = lines.findIndex((line, i) => line === '  <BIR>' && lines[i + 8]?.includes('Right Thumb'));
    const end = lines.indexOf('  </BIR>', start);
    expect(filtered.toString('utf8')).toBe([...lines.slice(0, start), ...lines.slice(end + 1)].join('\n'));
    // nothing to drop: the same bytes
    expect(withoutExceptions(filtered)).toEqual(filtered);
  });

  it('bdbDigests is the SHA-256 of each captured BDB, the exceptions left out', () => {
    const parsed = parseCbeff(buildCbeff(BIRS));
    expect(bdbDigests(parsed)).toEqual([
      sha256(bytes('left index finger image')),
      sha256(bytes('left iris image')),
      sha256(bytes('face image')),
      sha256(bytes('minutiae')),
    ]);
    // an exception that still carries a BDB is not a usable biometric either
    const withBdb = parseCbeff(buildCbeff([{ type: 'Finger', subtype: 'Left Thumb', bdb: bytes('partial'), exception: true }]));
    expect(withBdb.birs[0]!.bdb).toEqual(bytes('partial'));
    expect(bdbDigests(withBdb)).toEqual([]);
  });
});
