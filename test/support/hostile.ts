// Hostile input for the fuzz suite (test/rest/fuzz.test.ts): values of the wrong type, prototype
// keys, deep nesting, huge strings, NUL and lone surrogates, pattern metacharacters, and request
// bodies that are not what a route reads (invalid UTF-8, another content type, too large).
import fc from 'fast-check';

/** Field names the spec's requests use: a fuzzed object hits real fields as often as strangers. */
const FIELD_NAMES = [
  'id',
  'name',
  'code',
  'langCode',
  'isActive',
  'uin',
  'vid',
  'rid',
  'registrationId',
  'userId',
  'userName',
  'password',
  'appId',
  'clientId',
  'secretKey',
  'applicationId',
  'referenceId',
  'data',
  'timeStamp',
  'partnerId',
  'policyId',
  'filters',
  'sort',
  'pagination',
  'pageStart',
  'pageFetch',
  'value',
  'type',
  'identity',
  'documents',
  'status',
  'key',
  'otp',
  '__proto__',
  'constructor',
  'prototype',
];

/** Strings that have broken parsers, patterns and queries elsewhere. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '../../../etc/passwd',
  "' OR 1=1 --",
  '%',
  '_%_',
  '\\',
  '(a+)+$',
  '.*.*.*.*.*.*.*.*.*.*!',
  '[',
  '${jndi:ldap://127.0.0.1/x}',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '1e400',
  '-0',
  '9'.repeat(400),
  '2026-13-45T25:61:61Z',
  'null',
  '__proto__',
];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(70_000), '\u00e9'.repeat(40_000)) },
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, Number.MAX_VALUE, -Number.MAX_VALUE, 1e-300),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, leaning towards objects with the spec's field names. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** An array nested `depth` deep, as text: what a recursive parser or walker falls over. */
const deepText = (depth: number) => `{"request":${'['.repeat(depth)}${']'.repeat(depth)}}`;

/** A request body and its content type, as bytes on the wire. */
export interface HostileBody {
  what: string;
  contentType: string | undefined;
  body: Buffer | undefined;
}

const json = (what: string, value: unknown): HostileBody => ({ what, contentType: 'application/json', body: Buffer.from(JSON.stringify(value)) });

export const hostileBody: fc.Arbitrary<HostileBody> = fc.oneof(
  { weight: 6, arbitrary: hostileValue.map((request) => json('envelope', { id: 'x', version: '1.0', requesttime: new Date().toISOString(), request })) },
  { weight: 2, arbitrary: hostileValue.map((value) => json('bare value', value)) },
  {
    weight: 1,
    arbitrary: hostileValue.map((value) => ({
      what: 'prototype keys',
      contentType: 'application/json',
      // JSON.stringify drops __proto__ set by assignment: the text carries it as a parser sees it.
      body: Buffer.from(
        `{"__proto__":{"polluted":true},"id":"x","version":"1.0","request":{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"v":${JSON.stringify(value) ?? 'null'}}}`,
      ),
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(200, 5_000, 100_000)
      .map((depth) => ({ what: `nested ${depth} deep`, contentType: 'application/json', body: Buffer.from(deepText(depth)) })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({
      what: 'invalid UTF-8',
      contentType: 'application/json',
      body: Buffer.concat([Buffer.from('{"request":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(bytes), Buffer.from('"}')]),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'application/x-www-form-urlencoded', undefined).map((contentType) => ({
      what: `content type ${contentType ?? 'none'}`,
      contentType,
      body: Buffer.from('{"id":"x","request":{}}'),
    })),
  },
  { weight: 1, arbitrary: fc.constant({ what: 'not JSON', contentType: 'application/json', body: Buffer.from('{"request": tru') }) },
  {
    weight: 1,
    arbitrary: fc.constant({
      what: 'too large',
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify({ request: { name: 'x'.repeat(1_200_000) } })),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ what: 'empty', contentType: 'application/json', body: undefined }) },
);

/** A path parameter or query value: a hostile string as a client would encode it. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hostileString.filter((text) => text.length < 2_000).map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'))) },
  { weight: 1, arbitrary: fc.constantFrom('%00', '%ff%fe', '%', '..%2f..%2f', '%E0%A4%A', 'a%2Fb', '-1', '0', '99999999999999999999999') },
);

/** Query parameters: names the spec uses and strangers, hostile values, repeated names. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom(...FIELD_NAMES, 'pageNumber', 'pageSize', 'orderBy', 'direction', 'type', 'appId'), hostileSegment), { maxLength: 4 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}` : ''));
