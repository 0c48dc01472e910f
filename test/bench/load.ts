// The load generator, in a process of its own: one autocannon run described by the JSON on
// its standard input, its figures printed as JSON. A sequence (an OTP generated, then
// validated) runs as an autocannon request chain per connection.
//   echo '<json>' | node --import tsx test/bench/load.ts
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

export interface LoadCase {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** each request takes one of these paths at random instead of `path` (reads spread over many records) */
  paths?: string[];
  /** an OTP generated on `path` then validated on this path, per iteration */
  otpPairs?: { validatePath: string };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  errors: number;
  /** answers that carried errors (or a failed OTP validation): a benchmark of failures measures nothing */
  failedAnswers: number;
}

// The case comes on standard input: a list of 100,000 paths exceeds what a command line holds.
const spec = JSON.parse(readFileSync(0, 'utf8') || '{}') as LoadCase;
let failedAnswers = 0;
const check = (body: string) => {
  if (body.includes('"errors":[{')) failedAnswers++;
};

type Context = { key?: string; otp?: string };
const otpPairs = spec.otpPairs;
const requests: autocannon.Request[] = otpPairs
  ? [
      {
        method: 'POST',
        path: spec.path,
        setupRequest: (request, context: Context) => {
          context.key = `bench-${randomUUID()}`;
          return { ...request, body: JSON.stringify({ id: 'x', version: '1.0', requesttime: new Date().toISOString(), request: { key: context.key } }) };
        },
        onResponse: (_status, body, context: Context) => {
          check(body);
          context.otp = (JSON.parse(body) as { response?: { otp?: string } }).response?.otp;
        },
      },
      {
        method: 'GET',
        path: otpPairs.validatePath,
        setupRequest: (request, context: Context) => ({ ...request, path: `${otpPairs.validatePath}?key=${context.key}&otp=${context.otp}` }),
        onResponse: (_status, body) => {
          if (!body.includes('VALIDATION_SUCCESSFUL')) failedAnswers++;
        },
      },
    ]
  : [
      {
        method: spec.method ?? 'GET',
        path: spec.path,
        ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
        ...(spec.paths
          ? { setupRequest: (request: autocannon.Request) => ({ ...request, path: spec.paths![Math.floor(Math.random() * spec.paths!.length)] }) }
          : {}),
        onResponse: (_status, body) => check(body),
      },
    ];

const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  headers: { 'content-type': 'application/json', ...spec.headers },
  requests,
});
const output: LoadResult = {
  requestsPerSecond: result.requests.average,
  p50ms: result.latency.p50,
  p99ms: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  failedAnswers,
};
console.log(JSON.stringify(output));
