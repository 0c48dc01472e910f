import { MasterKey } from '../../lib/master-key.js';
import { MasterKeyRewrap, type SealedCheck } from '../../lib/master-key/rewrap.js';
import { MasterKeyStorage } from '../../lib/master-key/storage.js';
import { sealedSigningKeys } from '../../lib/tokens/storage.js';
import { sealedModuleKeys } from '../../subgraphs/keys/storage.js';
import { actAs } from './actor.js';
import { flag, option, PAGE_HELP, PAGE_PARSE, pageOf, morePages, required } from './args.js';
import { CommandRefusal, type AdminCommand, type AdminContext } from './command.js';
import { table, when } from './io.js';

/** Where the new master key of a rewrap is read from: never the command line (it would stay in the shell history). */
export const NEW_MASTER_KEY_VARIABLE = 'PLATFORM_NEW_MASTER_KEY';

/** Every column wrapped by the master key, besides the platform markers (lib/master-key/storage.ts adds those). */
const SEALED_COLUMNS = [sealedSigningKeys, sealedModuleKeys];

/** The key makers of the role table: whoever may generate (and so rotate) the key manager's keys. */
const keyMaker = (context: AdminContext) => actAs(context, 'Mutation.generateMasterKey');

const STATUSES = ['ACTIVE', 'RETIRED', 'EXPIRED'] as const;

export const keysList: AdminCommand = {
  path: ['keys', 'list'],
  summary: "list the key store's keys with their status, and the token signing keys (as Query.keys)",
  options: [
    '--app <appId>        only keys of this application id',
    '--ref <refId>        only keys of this reference id ("" is the master key)',
    '--status <status>    ACTIVE, RETIRED or EXPIRED',
    ...PAGE_HELP,
  ],
  parse: { app: { type: 'string' }, ref: { type: 'string' }, status: { type: 'string' }, ...PAGE_PARSE },
  async run(args, io, open) {
    const context = await open();
    await actAs(context, 'Query.keys');
    const status = option(args, 'status')?.toUpperCase();
    if (status && !STATUSES.includes(status as (typeof STATUSES)[number])) throw new CommandRefusal(`--status is one of ${STATUSES.join(', ')}`);
    const ref = args.values.ref;
    const filter = {
      applicationId: option(args, 'app'),
      referenceId: typeof ref === 'string' ? ref.trim() : undefined,
      status: status as (typeof STATUSES)[number],
    };
    const inventory = context.deps.services.keyInventory;
    const page = await inventory.keys(pageOf(args), filter);
    const keys = page.edges.map(({ node }) => ({
      alias: node.id,
      applicationId: node.applicationId,
      referenceId: node.referenceId,
      kind: node.kind,
      status: inventory.statusOf(node),
      validFrom: node.validFrom,
      validTo: node.validTo,
      retiredAt: node.retiredAt,
      thumbprint: node.thumbprint,
    }));
    const total = await page.totalCount();
    const rows = keys.map((key) => [key.applicationId, key.referenceId, key.kind, key.status, when(key.validFrom), when(key.validTo), key.alias]);
    for (const line of table(['APP', 'REF', 'KIND', 'STATUS', 'FROM', 'TO', 'ALIAS'], rows)) io.out(line);
    io.out(morePages(page.pageInfo, total, keys.length));
    const signing = await context.deps.tokens.keys.list();
    io.out('');
    const signingRows = signing.map((key) => [key.kid, key.active ? 'signs' : 'verifies', when(key.createdAt), key.active ? '-' : when(key.acceptedUntil)]);
    for (const line of table(['TOKEN SIGNING KEY (kid)', 'USE', 'CREATED', 'VERIFIES UNTIL'], signingRows)) io.out(line);
    return { keys, totalCount: total, nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null, signingKeys: signing };
  },
};

export const keysRotate: AdminCommand = {
  path: ['keys', 'rotate'],
  summary: "rotate an application's key: a new key pair and certificate from now; the old key stays, retired, to decrypt what it sealed",
  options: ['--app <appId>        the application id (required)', '--ref <refId>        a reference id (a base key); without it, the master key'],
  parse: { app: { type: 'string' }, ref: { type: 'string' } },
  async run(args, io, open) {
    const context = await open();
    await keyMaker(context);
    const app = required(args, 'app');
    const store = context.deps.services.keys.store;
    const { referenceId } = store.checkReference(app, option(args, 'ref'));
    const name = referenceId ? `${app}/${referenceId}` : app;
    const previous = await store.find(app, referenceId, context.clock.now());
    // A partner's certificate has no private key here: it changes when the partner uploads its next one.
    if (previous?.kind === 'OTHER_DOMAIN') throw new CommandRefusal(`${name} holds another domain's certificate: upload its new certificate instead`);
    const entry = await store.generate(app, referenceId, undefined, true);
    io.out(`${name}: new ${entry.kind.toLowerCase()} key ${entry.id}, valid until ${when(entry.validTo)} (thumbprint ${entry.thumbprint})`);
    if (previous) io.out(`the previous key ${previous.id} is retired: it signs and encrypts nothing more, and still decrypts what it sealed`);
    return {
      applicationId: app,
      referenceId,
      alias: entry.id,
      kind: entry.kind,
      thumbprint: entry.thumbprint,
      validFrom: entry.validFrom,
      validTo: entry.validTo,
      retired: previous ? previous.id : null,
    };
  },
};

export const keysRotateSigning: AdminCommand = {
  path: ['keys', 'rotate-signing'],
  summary: 'rotate the token signing key: new tokens name the new kid; tokens signed before stay valid until they expire',
  options: [],
  parse: {},
  async run(_args, io, open) {
    const context = await open();
    await keyMaker(context);
    const { kid, retired } = await context.deps.tokens.keys.rotate();
    const until = (await context.deps.tokens.keys.list()).filter((key) => retired.includes(key.kid));
    io.out(`tokens are signed with ${kid} from now on; /.well-known/jwks.json publishes it`);
    for (const key of until) io.out(`${key.kid} still verifies the tokens it signed, until ${when(key.acceptedUntil)}`);
    io.out('other instances sign with the new key within 30 s, and verify its tokens at once');
    return { kid, retired: until.map((key) => ({ kid: key.kid, verifiesUntil: key.acceptedUntil })) };
  },
};

const describe = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([column, count]) => `${count} ${column}`)
    .join(', ');

function failures(check: SealedCheck): string {
  const first = check.failed[0]!;
  return `${check.failed.length} value(s) do not open, e.g. ${first.column} ${first.id}`;
}

const total = (check: SealedCheck) => Object.values(check.opened).reduce((sum, count) => sum + count, 0);

export const keysRewrap: AdminCommand = {
  path: ['keys', 'rewrap'],
  summary: `re-encrypt every secret wrapped by the master key under a new one (${NEW_MASTER_KEY_VARIABLE}), in one transaction, and check it opens them all`,
  options: [
    `--dry-run            check that the current master key opens every wrapped value; change nothing`,
    `the new key: ${NEW_MASTER_KEY_VARIABLE} in the environment (never an option); stop every platform process first, start them after with PLATFORM_MASTER_KEY set to it`,
  ],
  parse: { 'dry-run': { type: 'boolean' } },
  async run(args, io, open) {
    const context = await open();
    await keyMaker(context);
    const rewrap = new MasterKeyRewrap(new MasterKeyStorage(context.database.prisma), SEALED_COLUMNS);
    const current = context.deps.masterKey;
    if (flag(args, 'dry-run')) {
      const check = await rewrap.check(current, (label, count) => io.progress(label, count));
      if (check.failed.length) throw new CommandRefusal(`the current master key does not open everything: ${failures(check)}`);
      io.out(`the current master key opens all ${total(check)} wrapped values: ${describe(check.opened)}`);
      return { dryRun: true, opened: check.opened };
    }
    const passphrase = context.config.env[NEW_MASTER_KEY_VARIABLE];
    if (!passphrase) throw new CommandRefusal(`set ${NEW_MASTER_KEY_VARIABLE} to the new master key (never on the command line)`);
    const next = MasterKey.fromPassphrase(passphrase);
    if (next.sameAs(current)) throw new CommandRefusal(`${NEW_MASTER_KEY_VARIABLE} is the master key in use: nothing to rewrap`);
    const report = await rewrap.rewrap(current, next, (label, count) => io.progress(label, count));
    if (report.verified.failed.length) throw new CommandRefusal(`the rewrap committed, but a check after it failed: ${failures(report.verified)}`);
    io.out(`rewrapped ${describe(report.rewrapped)}; the new master key opens all ${total(report.verified)} wrapped values`);
    io.out('start every platform process with PLATFORM_MASTER_KEY set to the new key: the old one is refused from now on');
    return { dryRun: false, rewrapped: report.rewrapped, verified: report.verified.opened };
  },
};
