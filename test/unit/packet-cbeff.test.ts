import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bdbDigests, buildCbeff, CBEFF_LIMITS, CBEFF_NAMESPACE, parseCbeff, withoutExceptions, type BirInput } from '../../lib/packet/cbeff.js';
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

describe('hostile CBEFF: no DTD, no entity, bounded sizes', () => {
  const refusal = (xml: string | Buffer): Error => {
    try {
      parseCbeff(xml);
    } catch (error) {
      expect(error).toBeInstanceOf(PacketFormatError);
      return error as Error;
    }
    throw new Error('parsed');
  };
  const root = (inner: string) => `<BIR xmlns="${CBEFF_NAMESPACE}">${inner}</BIR>`;

  it('refuses the billion laughs at its DOCTYPE, before any entity is expanded', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const xml = `<?xml version="1.0"?><!DOCTYPE BIR [<!ENTITY lol0 "lol">${levels}]>${root('<BDB>&lol9;</BDB>')}`;
    const started = performance.now();
    expect(refusal(xml).message).toMatch(/DOCTYPE or ENTITY declaration \(refused\)/);
    // 10^9 "lol"s expanded would take seconds and gigabytes
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('refuses external entities and an external DTD without fetching anything', async () => {
    const connections: number[] = [];
    const server = createServer((socket) => {
      connections.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/evil`;
    try {
      for (const xml of [
        `<!DOCTYPE BIR [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${root('<BDB>&xxe;</BDB>')}`,
        `<!DOCTYPE BIR [<!ENTITY xxe SYSTEM "${url}.xml">]>${root('<BDB>&xxe;</BDB>')}`,
        `<!DOCTYPE BIR SYSTEM "${url}.dtd">${root('<BDB>&xxe;</BDB>')}`,
        `<!DOCTYPE BIR [<!ENTITY % remote SYSTEM "${url}.dtd"> %remote;]>${root('')}`,
        // a declaration anywhere else is not XML at all
        root(`<!ENTITY xxe SYSTEM "${url}.xml"><BDB>&xxe;</BDB>`),
      ])
        expect(refusal(xml).message).toMatch(/DOCTYPE or ENTITY declaration \(refused\)/);
      // an entity no DTD declared is never looked up either
      expect(refusal(root('<BDB>&xxe;</BDB>')).message).toMatch(/unknown entity reference/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(connections).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('names no value of the document in its messages', () => {
    for (const xml of [root('<BDB>&secret-value;</BDB>'), root('<secret-value></other>'), root('<secret-value a="1" a="2"/>'), '<secret-value>'])
      expect(refusal(xml).message).not.toMatch(/secret/);
  });

  it(`refuses an attribute value longer than ${CBEFF_LIMITS.maxAttributeChars} characters`, () => {
    const entry = (key: string) =>
      parseCbeff(root(`<BIR><BDBInfo><Format><Type>7</Type></Format><Type>Finger</Type></BDBInfo><others><entry key="${key}">true</entry></others></BIR>`));
    expect(entry('x'.repeat(CBEFF_LIMITS.maxAttributeChars)).birs).toHaveLength(1);
    expect(() => entry('x'.repeat(CBEFF_LIMITS.maxAttributeChars + 1))).toThrow(
      `an attribute value is longer than ${CBEFF_LIMITS.maxAttributeChars} characters`,
    );
    expect(refusal(root(`<x a="${'x'.repeat(4_000_000)}"/>`)).message).toMatch(/attribute value is longer than/);
  });

  it(`refuses an element's text longer than ${CBEFF_LIMITS.maxTextChars} characters, and any construct that runs on past it`, () => {
    const bir = (bdb: string) => root(`<BIR><BDBInfo><Format><Type>7</Type></Format><Type>Finger</Type></BDBInfo><BDB>${bdb}</BDB></BIR>`);
    const largest = 'A'.repeat(CBEFF_LIMITS.maxTextChars);
    expect(parseCbeff(bir(largest)).birs[0]!.bdb!.length).toBe((CBEFF_LIMITS.maxTextChars / 4) * 3);
    // one character more, or the same text split by a comment, is too much
    expect(refusal(bir(`${largest}AAAA`)).message).toMatch(/text is longer than 16777216 characters/);
    expect(refusal(bir(`${largest.slice(4)}<!-- split -->AAAAAAAA`)).message).toMatch(/text is longer than/);
    // a comment (or a text, a tag, a declaration) is refused while it is read, before its end
    const started = performance.now();
    expect(refusal(root(`<!--${'x'.repeat(CBEFF_LIMITS.maxTextChars + 100_000)}-->`)).message).toMatch(/a text, tag, comment or declaration is longer than/);
    expect(refusal(`<BIR xmlns="${CBEFF_NAMESPACE}" ${' '.repeat(CBEFF_LIMITS.maxTextChars + 100_000)}`).message).toMatch(/longer than/);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it(`reads ${CBEFF_LIMITS.maxElements} elements and ${CBEFF_LIMITS.maxDepth} levels, and refuses one more of either`, () => {
    expect(parseCbeff(root('<x/>'.repeat(CBEFF_LIMITS.maxElements - 1))).birs).toEqual([]);
    expect(refusal(root('<x/>'.repeat(CBEFF_LIMITS.maxElements))).message).toMatch(/too many elements/);
    const depth = CBEFF_LIMITS.maxDepth - 1;
    expect(parseCbeff(root(`${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}`)).birs).toEqual([]);
    expect(refusal(root(`${'<x>'.repeat(depth + 1)}${'</x>'.repeat(depth + 1)}`)).message).toMatch(/nested too deep/);
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

  it("withoutExceptions keeps another writer's bytes too: CR LF, prefixes, a tab, a tag split over lines, non-ASCII text", () => {
    const captured = (subtype: string) =>
      `\t<ns2:BIR><ns2:BDBInfo><ns2:Format><ns2:Type>7</ns2:Type></ns2:Format><ns2:Type>Finger</ns2:Type><ns2:Subtype>${subtype}</ns2:Subtype></ns2:BDBInfo><ns2:BDB>AAEC</ns2:BDB></ns2:BIR>\r\n`;
    const exception = (subtype: string) =>
      `<ns2:BIR ><ns2:BDBInfo><ns2:Format><ns2:Type>7</ns2:Type></ns2:Format><ns2:Type>Finger</ns2:Type><ns2:Subtype>${subtype}</ns2:Subtype></ns2:BDBInfo><ns2:others><ns2:entry key="EXCEPTION">TRUE</ns2:entry></ns2:others></ns2:BIR\r\n>`;
    const head = `<?xml version="1.0"?>\r\n<!-- écrit ailleurs: <ns2:BIR> -->\r\n<ns2:BIR xmlns:ns2="${CBEFF_NAMESPACE}">\r\n`;
    const document = `${head}${captured('Left Thumb')}\t${exception('Right Thumb')}\r\n${captured('Left IndexFinger')}  ${exception('Right IndexFinger')}\n</ns2:BIR>\r\n`;
    // Each exception goes with the tabs or spaces before it and one "\n" after it (a "\r\n" stays, as it always did).
    const expected = `${head}${captured('Left Thumb')}\r\n${captured('Left IndexFinger')}</ns2:BIR>\r\n`;
    expect(withoutExceptions(bytes(document)).toString('utf8')).toBe(expected);
    expect(parseCbeff(withoutExceptions(bytes(document))).birs.map((bir) => bir.subtype)).toEqual(['Left Thumb', 'Left IndexFinger']);
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
