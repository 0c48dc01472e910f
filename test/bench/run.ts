// npm run bench: validateToken through the whole chain (REST → gateway → auth subgraph → database)
// against a bare Express handler doing the same token check on the same database, in the same run.
// Options (environment): BENCH_SECONDS (10), BENCH_CONNECTIONS (16), PLATFORM_TEST_DB=postgres for PostgreSQL.
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express from 'express';
import { readCredentials } from '../../lib/credentials.js';
import { PlatformError } from '../../lib/errors.js';
import { cookieHeader, startTestPlatform } from '../support/platform.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

const t = await startTestPlatform({ PLATFORM_THROTTLE_ADDRESS: '0' });
const token = await t.adminToken();
const { tokens, prisma } = t.platform.deps;

// The baseline: the same verification (signature + token row) and the same user look-up, no gateway.
const bare = express();
bare.get('/validate', async (req, res) => {
  try {
    const principal = await tokens.verify(readCredentials({ cookie: req.headers.cookie, authorization: req.headers.authorization }));
    const user = await prisma.user.findUnique({ where: { userId: principal.subject } });
    res.json({ response: { userId: principal.subject, name: user?.name ?? null, role: principal.roles.join(','), token: principal.token }, errors: null });
  } catch (error) {
    res.json({ response: null, errors: [{ errorCode: error instanceof PlatformError ? error.code : 'KER-ATH-500', message: 'failed' }] });
  }
});
const bareServer = bare.listen(0, '127.0.0.1');
await new Promise((resolve) => bareServer.once('listening', resolve));
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/validate`;

async function measure(name: string, url: string, extraHeaders: Record<string, string> = {}) {
  const headers = { ...cookieHeader(token), ...extraHeaders };
  // Warm-up: JIT, query plan and document caches.
  await autocannon({ url, headers, connections, duration: 2 });
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const row = { name, requestsPerSecond: Math.round(result.requests.average), p50ms: result.latency.p50, p99ms: result.latency.p99 };
  console.log(`${name.padEnd(44)} ${String(row.requestsPerSecond).padStart(7)} req/s   p50 ${row.p50ms} ms   p99 ${row.p99ms} ms`);
  return row;
}

// Check both answer correctly before timing them.
const check = await fetch(`${t.baseUrl}/v1/authmanager/authorize/admin/validateToken`, { headers: cookieHeader(token) }).then((r) => r.json());
if (check.response?.userId !== 'admin') throw new Error('platform validateToken is not answering');

console.log(`validateToken, ${connections} connections, ${seconds} s each, database ${t.platform.database.kind}`);
const baseline = await measure('bare Express + same token check', bareUrl);
const chain = await measure('REST → gateway → subgraph → database', `${t.baseUrl}/v1/authmanager/authorize/admin/validateToken`);
const graphql = await measure('GraphQL GET → gateway → subgraph → database', `${t.baseUrl}/graphql?query=${encodeURIComponent('{validateToken{userId role}}')}`, { 'apollo-require-preflight': 'true' }).catch((error: Error) => {
  console.log(`GraphQL GET not measured: ${error.message}`);
  return undefined;
});
console.log(`ratio (whole chain / bare): ${(chain.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}`);
if (graphql) console.log(`ratio (GraphQL / bare): ${(graphql.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}`);

bareServer.close();
await t.close();
