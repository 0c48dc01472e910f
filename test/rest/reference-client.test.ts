// The portal graph as a real client app uses it: Apollo Client's normalised cache over the six
// screens (admin dashboard, registration detail, the adjudicator's queue, partner manager, centre,
// identity), each one query; after each mutation the cache shows the change, read from the cache
// alone, with no request but the mutation's. Entities are keyed as the supergraph's @key says.
import { readFileSync } from 'node:fs';
import { ApolloClient, gql, HttpLink, InMemoryCache, type DocumentNode, type TypePolicies } from '@apollo/client';
import { buildSchema, isObjectType, Kind } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUPERGRAPH_FILE } from '../../gateway/compose.js';
import { idrepoCalls, newRid } from '../support/identities.js';
import { bearer, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { userLogin } from '../support/users.js';

let t: TestPlatform;
// No job runs: every state a screen shows is set by the test or by the mutation it makes.
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', JOBS_RUN: 'false' }, (platform) => {
  t = platform;
});

/** Each entity's key fields, from the supergraph's @join__type keys (the first one of a type). */
function typePolicies(): TypePolicies {
  const schema = buildSchema(readFileSync(SUPERGRAPH_FILE, 'utf8'), { assumeValidSDL: true });
  const policies: TypePolicies = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const directive of type.astNode?.directives ?? []) {
      const key = directive.name.value === 'join__type' ? directive.arguments?.find((arg) => arg.name.value === 'key') : undefined;
      if (key?.value.kind !== Kind.STRING || policies[type.name]) continue;
      policies[type.name] = { keyFields: key.value.value.trim().split(/\s+/) };
    }
  }
  return policies;
}

interface PortalClient {
  client: ApolloClient;
  /** how many requests reached the platform */
  requests: () => number;
}

const POLICIES = typePolicies();

function portal(headers: Record<string, string>): PortalClient {
  let requests = 0;
  const link = new HttpLink({
    uri: `${t.baseUrl}/graphql`,
    headers,
    fetch: (input, init) => {
      requests++;
      return fetch(input, init);
    },
  });
  return { client: new ApolloClient({ link, cache: new InMemoryCache({ typePolicies: POLICIES }) }), requests: () => requests };
}

/** Runs the mutation, then reads the screen from the cache alone: no request but the mutation's. */
async function mutateThenRead<T>(
  { client, requests }: PortalClient,
  mutation: DocumentNode,
  variables: Record<string, unknown>,
  screen: { query: DocumentNode; variables?: Record<string, unknown> },
): Promise<{ answer: any; cached: T }> {
  const before = requests();
  const { data, error } = await client.mutate({ mutation, variables });
  expect(error).toBeUndefined();
  const cached = client.readQuery<T>(screen);
  expect(requests()).toBe(before + 1);
  return { answer: data, cached: cached! };
}

const NOW = new Date();
const registrationRow = (rid: string, over: Record<string, unknown>) => ({
  rid,
  centreId: '10001',
  machineId: '10001',
  registrationType: 'NEW',
  packetHashValue: 'A'.repeat(64),
  packetSize: 1000,
  supervisorStatus: 'APPROVED',
  langCode: 'eng',
  status: 'PROCESSING',
  syncedBy: 'sample-officer',
  createdAt: NOW,
  updatedAt: NOW,
  ...over,
});

let admin: PortalClient;
beforeAll(async () => {
  admin = portal(bearer(await t.adminToken()));
});

describe('a portal on the normalised cache', () => {
  it('the dashboard and a registration: resuming a stuck one shows its new state on both, from the cache', async () => {
    const rid = newRid();
    await t.platform.deps.prisma.registration.create({
      data: registrationRow(rid, { status: 'FAILED', stage: 'UPLOAD_PACKET', attempts: 3, lastError: 'the packet cannot be decrypted' }),
    });
    const DASHBOARD = gql`
      query Dashboard {
        viewer {
          id
          roles
          permissions
        }
        registrationCounts {
          stage
          status
          count
        }
        stuckRegistrations(first: 50) {
          totalCount
          edges {
            node {
              registrationId
              status
              stage
              attempts
              lastError
            }
          }
        }
        abisSystems {
          name
          liveness
        }
        uinPool {
          unused
          size
          threshold
        }
      }
    `;
    const REGISTRATION = gql`
      query Registration($rid: ID!) {
        registration(registrationId: $rid) {
          registrationId
          status
          stage
          attempts
          lastError
          centre {
            id
            langCode
            name
          }
        }
      }
    `;
    const dashboard = await admin.client.query<any>({ query: DASHBOARD });
    expect(dashboard.data.stuckRegistrations.edges.map((edge: any) => edge.node.registrationId)).toContain(rid);
    const detail = await admin.client.query<any>({ query: REGISTRATION, variables: { rid } });
    expect(detail.data.registration).toMatchObject({ status: 'FAILED', attempts: 3, centre: { id: '10001', name: expect.any(String) } });

    const RESUME = gql`
      mutation Resume($input: ResumeRegistrationsInput!) {
        resumeRegistrations(input: $input) {
          resumedRegistrations {
            resumed
            registrations {
              registrationId
              status
              stage
              attempts
              lastError
            }
          }
          userErrors {
            code
            message
          }
        }
      }
    `;
    const { answer, cached } = await mutateThenRead<any>(admin, RESUME, { input: { registrationId: rid } }, { query: REGISTRATION, variables: { rid } });
    const resumed = answer.resumeRegistrations.resumedRegistrations.registrations[0];
    expect(resumed).toMatchObject({ registrationId: rid, attempts: 0 });
    expect(cached.registration).toMatchObject({ status: resumed.status, attempts: 0, lastError: resumed.lastError });
    // The dashboard's row of the same registration is the same cache entry.
    const board = admin.client.readQuery<any>({ query: DASHBOARD });
    expect(board.stuckRegistrations.edges.find((edge: any) => edge.node.registrationId === rid).node.attempts).toBe(0);
  });

  it("the adjudicator's queue: assigning and deciding show the assignee and the outcome, from the cache", async () => {
    const [earlier, waiting] = [newRid(), newRid()];
    const prisma = t.platform.deps.prisma;
    await prisma.registration.create({ data: registrationRow(earlier, { status: 'PROCESSED', stage: 'UIN_GENERATOR' }) });
    await prisma.registration.create({ data: registrationRow(waiting, { stage: 'MANUAL_ADJUDICATION' }) });
    await prisma.manualVerification.create({
      data: { id: `${waiting}-1`, rid: waiting, matchedRid: earlier, matchedRefType: 'RID', reasonCode: 'BIO', status: 'PENDING', createdAt: NOW },
    });
    const QUEUE = gql`
      query Queue {
        manualVerifications(filter: { assignedTo: ANYONE, status: PENDING }, first: 2) {
          edges {
            node {
              registrationId
              status
              stage
              assignee {
                userId
              }
              manualVerifications {
                status
                matchedRegistration {
                  registrationId
                  status
                }
              }
            }
          }
        }
      }
    `;
    const queue = await admin.client.query<any>({ query: QUEUE });
    const node = (data: any) => data.manualVerifications.edges.find((edge: any) => edge.node.registrationId === waiting)?.node;
    expect(node(queue.data)).toMatchObject({ assignee: null, manualVerifications: [{ status: 'PENDING' }] });

    const ASSIGN = gql`
      mutation Assign {
        assignManualVerification(input: { userId: "admin" }) {
          manualVerificationAssignment {
            regId
            registration {
              registrationId
              assignee {
                userId
              }
            }
          }
          userErrors {
            code
          }
        }
      }
    `;
    const assigned = await mutateThenRead<any>(admin, ASSIGN, {}, { query: QUEUE });
    expect(assigned.answer.assignManualVerification.manualVerificationAssignment.regId).toBe(waiting);
    expect(node(assigned.cached).assignee).toEqual({ __typename: 'User', userId: 'admin' });

    const DECIDE = gql`
      mutation Decide($input: AdjudicateRegistrationInput!) {
        adjudicateRegistration(input: $input) {
          registration {
            registrationId
            status
            stage
          }
          userErrors {
            field
            code
          }
        }
      }
    `;
    const decided = await mutateThenRead<any>(admin, DECIDE, { input: { registrationId: waiting, decision: 'REJECTED' } }, { query: QUEUE });
    expect(decided.answer.adjudicateRegistration.userErrors).toEqual([]);
    expect(node(decided.cached).status).toBe('REJECTED');
  });

  it('the partner manager: switching a partner off shows on its row, from the cache', async () => {
    const login = await userLogin(t, 'portal-partner', ['PARTNER']);
    const registered = await t.graphql(
      'mutation { registerPartner(input: { organizationName: "Portal Org", contactNumber: "9876543210", emailId: "org@example.org", address: "1 Street", policyGroup: "default" }) { partnerRegistration { partnerId partner { id status organizationName } } userErrors { code message } } }',
      {},
      login.bearer,
    );
    const partnerId = registered.data.registerPartner.partnerRegistration.partnerId as string;
    expect(registered.data.registerPartner.partnerRegistration.partner).toEqual({ id: partnerId, status: 'ACTIVE', organizationName: 'Portal Org' });
    const PARTNERS = gql`
      query Partners {
        partners(first: 100) {
          totalCount
          edges {
            node {
              id
              status
              organizationName
              policyGroup {
                id
                name
              }
              apiKeyRequests(first: 5) {
                totalCount
              }
            }
          }
        }
      }
    `;
    const list = await admin.client.query<any>({ query: PARTNERS });
    const row = (data: any) => data.partners.edges.find((edge: any) => edge.node.id === partnerId)?.node;
    expect(row(list.data)).toMatchObject({ status: 'ACTIVE', policyGroup: { id: 'default' } });

    const SWITCH = gql`
      mutation Switch($input: UpdatePartnerStatusInput!) {
        updatePartnerStatus(input: $input) {
          partnerMessage {
            message
            partner {
              id
              status
            }
          }
          userErrors {
            code
            message
          }
        }
      }
    `;
    const { answer, cached } = await mutateThenRead<any>(admin, SWITCH, { input: { partnerId, status: 'DE_ACTIVE' } }, { query: PARTNERS });
    expect(answer.updatePartnerStatus.userErrors).toEqual([]);
    expect(row(cached).status).toBe('DE_ACTIVE');
  });

  it("the centre: renaming a machine shows on the centre's list, from the cache", async () => {
    const CENTRE = gql`
      query Centre {
        registrationCentres(first: 5, filter: { langCode: "eng" }) {
          edges {
            node {
              id
              langCode
              name
              machines(first: 10) {
                edges {
                  node {
                    id
                    langCode
                    name
                    serialNum
                    zoneCode
                    isActive
                  }
                }
              }
            }
          }
        }
      }
    `;
    const centre = await admin.client.query<any>({ query: CENTRE });
    const machines = (data: any) => data.registrationCentres.edges.flatMap((edge: any) => edge.node.machines.edges.map((inner: any) => inner.node));
    const machine = machines(centre.data).find((found: any) => found.id === '10001');
    expect(machine).toBeDefined();
    const UPDATE = gql`
      mutation Rename($input: MachineInput!) {
        updateMachine(input: $input) {
          machine {
            id
            langCode
            name
          }
          userErrors {
            field
            code
            message
          }
        }
      }
    `;
    const input = {
      id: machine.id,
      langCode: machine.langCode,
      name: 'Renamed by the portal',
      serialNum: machine.serialNum,
      zoneCode: machine.zoneCode,
      isActive: true,
    };
    const { answer, cached } = await mutateThenRead<any>(admin, UPDATE, { input }, { query: CENTRE });
    expect(answer.updateMachine.userErrors).toEqual([]);
    expect(machines(cached).find((found: any) => found.id === '10001').name).toBe('Renamed by the portal');
  });

  it("the identity: revoking a VID shows on the identity's list, from the cache", async () => {
    const processor = bearer((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
    const operator = portal(bearer((await t.clientToken(['ID_REPOSITORY'], 'admin')).token));
    const { ok, vidCall, newUin, create } = idrepoCalls(() => t);
    const uin = newUin();
    await ok(create(processor, uin, newRid()));
    const issued = await ok(vidCall(processor, 'POST', '', { vidType: 'Temporary', UIN: uin }));
    const IDENTITY = gql`
      query Identity($by: IdentityLookupInput) {
        identity(by: $by) {
          id
          status
          vids(first: 10) {
            totalCount
            edges {
              node {
                id
                vid
                type
                status
              }
            }
          }
        }
      }
    `;
    const screen = await operator.client.query<any>({ query: IDENTITY, variables: { by: { uin } } });
    expect(screen.data.identity.vids.edges.map((edge: any) => edge.node.status)).toEqual(['ACTIVE']);
    const REVOKE = gql`
      mutation Revoke($input: UpdateVidStatusInput!) {
        updateVidStatus(input: $input) {
          vidStatusChange {
            vidStatus
            vid {
              id
              status
            }
          }
          userErrors {
            code
            message
          }
        }
      }
    `;
    const { answer, cached } = await mutateThenRead<any>(
      operator,
      REVOKE,
      { input: { vid: issued.VID, vidStatus: 'REVOKED' } },
      {
        query: IDENTITY,
        variables: { by: { uin } },
      },
    );
    expect(answer.updateVidStatus.userErrors).toEqual([]);
    expect(cached.identity.vids.edges.map((edge: any) => edge.node.status)).toEqual(['REVOKED']);
  });
});
