import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';

// Swagger UI and GraphiQL driven in Debian's Chromium (`apt-get install chromium`; .ci/run installs it): signed in
// through their pages, a call run in each and its answer read off the page. Every request a page makes is recorded,
// and the test fails on any to another host than the platform (the deployments are air-gapped) and on any script or
// style the pages' Content-Security-Policy refuses. Screenshots go to <tmpdir>/platform-explorers/.

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = path.join(tmpdir(), 'platform-explorers');
const CATEGORY = 'EXPLORERPOA';
// Swagger UI takes seconds to lay out ~190 operations on a shared two-core machine: generous bounds, not speed checks.
const SLOW = { timeout: 120_000 };
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 45_000, interval: 250 });

let t: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [t, browser] = await Promise.all([
    startTestPlatform(),
    chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    }),
  ]);
  // A document category for Swagger UI to read back (a fresh database has no languages: master data starts with them).
  const now = new Date();
  await t.platform.deps.prisma.language.create({ data: { code: 'eng', name: 'English', createdBy: 'test', createdAt: now, changedAt: now } });
  const created = await t.request('POST', '/v1/masterdata/documentcategories', {
    body: envelopeOf({ code: CATEGORY, langCode: 'eng', name: 'Proof of address', description: 'seeded for the explorers', isActive: true }),
    headers: cookieHeader(await t.adminToken()),
  });
  expect(created.json.errors).toBeNull();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A fresh browser profile on the platform: the requests its pages make, and what went wrong in them. */
async function openBrowser(baseUrl: string): Promise<{ context: BrowserContext; page: Page; foreign: string[]; problems: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1400, height: 1000 } });
  const origin = new URL(baseUrl).origin;
  const foreign: string[] = [];
  const problems: string[] = [];
  // Nothing leaves the machine even if a page tried: a request elsewhere is recorded, then refused.
  await context.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
  context.setDefaultTimeout(45_000);
  const page = await context.newPage();
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && new URL(url).origin !== origin) foreign.push(url);
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  return { context, page, foreign, problems };
}

describe('Swagger UI at /swagger-ui', () => {
  it('signs in with the password login, then runs a master data GET with the cookie and the token it keeps', SLOW, async () => {
    const { context, page, foreign, problems } = await openBrowser(t.baseUrl);
    const response = await page.goto('/swagger-ui');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

    const login = page.locator('#operations-auth-LoginWithPassword');
    await login.locator('.opblock-summary').click();
    await login.getByRole('button', { name: 'Try it out' }).click();
    await login.locator('textarea.body-param__text').fill(JSON.stringify(envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' })));
    await login.getByRole('button', { name: 'Execute' }).click();
    await poll(() => login.locator('.live-responses-table').textContent()).toContain('refreshExpiryTime');
    expect((await context.cookies()).map((cookie) => cookie.name)).toContain('Authorization');

    const list = page.locator('#operations-masterdata-DocumentsCategoryList');
    await list.locator('.opblock-summary').click();
    await list.getByRole('button', { name: 'Try it out' }).click();
    const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/v1/masterdata/documentcategories');
    await list.getByRole('button', { name: 'Execute' }).click();
    // The browser's cookie, and the login's token that filled the Authorize dialog (for a browser that drops the cookie).
    const headers = await (await sent).allHeaders();
    expect(headers.cookie).toMatch(/(^|; )Authorization=Platform-Token/);
    expect(headers.authorization).toMatch(/^Bearer ey/);
    const answer = list.locator('.live-responses-table');
    await poll(() => answer.textContent()).toContain(CATEGORY);
    expect(await answer.textContent()).toMatch(/"errors":\s*null/);
    await list.screenshot({ path: path.join(SHOTS, 'swagger-ui.png') });

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('GraphiQL at GET /graphql', () => {
  it('signs in through its form, runs a query on the portal graph and browses the schema', SLOW, async () => {
    const { context, page, foreign, problems } = await openBrowser(t.baseUrl);
    const response = await page.goto('/graphql');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await poll(() => page.locator('#status').textContent()).toContain('Not signed in');

    await page.fill('input[name=userName]', 'admin');
    await page.fill('input[name=password]', ADMIN_PASSWORD);
    await page.click('#sign-in button[type=submit]');
    await poll(() => page.locator('#status').textContent()).toBe('Signed in as admin');

    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.result-window');
    await poll(() => result.textContent()).toContain('GLOBAL_ADMIN');
    expect(await result.textContent()).toContain('"appId": "admin"');

    // The schema came by introspection with the sign-in's credentials: the docs show the portal graph's root type.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().click();
    await poll(() => page.locator('.graphiql-doc-explorer').textContent()).toContain('viewer');
    await page.screenshot({ path: path.join(SHOTS, 'graphiql.png'), fullPage: false });

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('still answers GraphQL clients, and serves only its listed files', async () => {
    const json = await fetch(`${t.baseUrl}/graphql?query=%7B__typename%7D`, { headers: { accept: 'application/json', 'apollo-require-preflight': 'true' } });
    expect(await json.json()).toEqual({ data: { __typename: 'Query' } });
    // Apollo's CSRF prevention stays on: a simple GET without the preflight header is refused.
    expect((await fetch(`${t.baseUrl}/graphql?query=%7B__typename%7D`, { headers: { accept: 'application/json' } })).status).toBe(400);
    expect((await fetch(`${t.baseUrl}/graphiql/assets/graphiql.min.js`)).status).toBe(200);
    for (const probe of ['..%2Fpackage.json', '..%2F..%2Fpackage.json', 'graphiql.js', 'index.html'])
      expect((await fetch(`${t.baseUrl}/graphiql/assets/${probe}`)).status, probe).toBe(404);
    expect((await fetch(`${t.baseUrl}/swagger-ui/assets/swagger-initializer.js`)).status).toBe(404);
  });
});

describe('with PLATFORM_GRAPHQL_EXPLORER=false', () => {
  let off: TestPlatform;
  beforeAll(async () => {
    off = await startTestPlatform({ PLATFORM_GRAPHQL_EXPLORER: 'false' }, { database: t.platform.database });
  });
  afterAll(() => off?.close());

  it('serves no GraphiQL (nor Apollo’s landing page) to a browser, and Swagger UI still', SLOW, async () => {
    const { context, page, foreign, problems } = await openBrowser(off.baseUrl);
    const response = await page.goto('/graphql');
    // Apollo's answer to a GET without a query (its CSRF refusal): JSON, no page, nothing loaded from anywhere.
    expect(response?.status()).toBe(400);
    expect(response?.headers()['content-type']).toMatch(/^application\/json/);
    expect(await page.locator('script, link').count()).toBe(0);
    expect((await fetch(`${off.baseUrl}/graphiql/assets/graphiql.min.js`)).status).toBe(404);
    // Swagger UI has no switch (its rendering is the first test's): its page and files are still served.
    expect((await page.goto('/swagger-ui'))?.status()).toBe(200);
    expect((await fetch(`${off.baseUrl}/swagger-ui/assets/swagger-ui-bundle.js`)).status).toBe(200);
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
