// Honest argument types over the composed supergraph: statuses are the enums the outputs use, days and
// instants are Date and DateTime, entity keys ID, roles a list (the REST paths keep their wire strings: rest-compat maps them).
import { readFileSync } from 'node:fs';
import {
  buildASTSchema,
  buildSchema,
  parse,
  type GraphQLInputObjectType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isObjectType,
  getNullableType,
  Kind,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { SUPERGRAPH_FILE } from '../../gateway/compose.js';
import { withRequiredArguments } from '../../lib/graph/required.js';
import { componentSchemaDocument } from '../../lib/subgraph.js';

/** Every argument of a root field and every input field: its coordinate, name and type. */
function inputs(schema: GraphQLSchema): { at: string; name: string; type: GraphQLInputType }[] {
  const found: { at: string; name: string; type: GraphQLInputType }[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType()])
    for (const field of Object.values(root?.getFields() ?? {}))
      for (const arg of field.args) found.push({ at: `${root!.name}.${field.name}(${arg.name})`, name: arg.name, type: arg.type });
  for (const type of Object.values(schema.getTypeMap()))
    if (isInputObjectType(type) && !type.name.startsWith('__') && !type.name.includes('__'))
      for (const field of Object.values(type.getFields())) found.push({ at: `${type.name}.${field.name}`, name: field.name, type: field.type });
  return found;
}

const supergraph = () => buildSchema(readFileSync(SUPERGRAPH_FILE, 'utf8'), { assumeValidSDL: true });

describe('argument types', () => {
  const all = inputs(supergraph());

  it('takes every status as an enum of the values the outputs use (or a Boolean for on and off), never a String', () => {
    const statuses = all.filter(({ name }) => /status$/i.test(name));
    expect(statuses.length).toBeGreaterThanOrEqual(8);
    expect(statuses.filter(({ type }) => !isEnumType(getNamedType(type)) && getNamedType(type).name !== 'Boolean').map(({ at }) => at)).toEqual([]);
    const byCoordinate = Object.fromEntries(all.map(({ at, type }) => [at, String(type)]));
    expect(byCoordinate).toMatchObject({
      'DecideMispInput.mispStatus': 'MispStatus!',
      'SetMispActiveInput.isActive': 'Boolean!',
      'UpdatePartnerStatusInput.status': 'PartnerStatus!',
      'UpdatePartnerApiKeyStatusInput.status': 'PartnerStatus!',
      'DecideApiKeyRequestInput.status': 'ApiKeyRequestStatus!',
      'UpdateLicenseStatusInput.status': 'LicenseStatus!',
      'UpdateVidStatusInput.vidStatus': 'VidStatus!',
      'UpdateIdentityInput.status': 'IdentityStatus',
    });
  });

  it('takes days as Date and instants a portal sends as DateTime', () => {
    const days = all.filter(({ name }) => /Date$/.test(name));
    expect(days.length).toBeGreaterThanOrEqual(4);
    expect(days.filter(({ type }) => getNamedType(type).name !== 'Date').map(({ at }) => at)).toEqual([]);
    const instantNames = ['effectiveFrom', 'licenseExpiryTime', 'validityDateTime', 'requestTime', 'timeStamp', 'timestamp', 'lastUpdated'];
    const instants = all.filter(({ name }) => instantNames.includes(name));
    expect(new Set(instants.map(({ name }) => name))).toEqual(new Set(instantNames));
    expect(instants.length).toBeGreaterThanOrEqual(12);
    expect(instants.filter(({ type }) => getNamedType(type).name !== 'DateTime').map(({ at }) => at)).toEqual([]);
    expect(String(all.find(({ at }) => at === 'HolidayFilter.from')?.type)).toBe('Date');
  });

  it('answers instants as DateTime too: a String output named like an instant is a time of day', () => {
    const schema = supergraph();
    const textual = Object.values(schema.getTypeMap()).flatMap((type) =>
      isObjectType(type) && !type.name.startsWith('__') && !type.name.includes('__')
        ? Object.values(type.getFields())
            .filter((field) => /(At|Time|Date|DateTime|[tT]imestamp|[tT]imeStamp)$/.test(field.name) && getNamedType(field.type).name === 'String')
            .map((field) => `${type.name}.${field.name}`)
        : [],
    );
    expect(textual.sort()).toEqual(
      ['centerEndTime', 'centerStartTime', 'lunchEndTime', 'lunchStartTime', 'perKioskProcessTime'].map((field) => `RegistrationCentre.${field}`),
    );
  });

  it("answers a token's roles as a list", () => {
    const identity = supergraph().getType('TokenIdentity');
    const roles = identity && 'getFields' in identity ? identity.getFields().roles : undefined;
    expect(roles && isListType(getNullableType(roles.type))).toBe(true);
  });

  it('identifies each entity that has one key by an ID, and takes such keys as ID wherever they are passed', () => {
    const schema = supergraph();
    // Every graph's @join__type key of each entity: the single-field ones.
    const singleKeys = Object.values(schema.getTypeMap()).flatMap((type) => {
      if (!isObjectType(type)) return [];
      const keys = (type.astNode?.directives ?? [])
        .filter((directive) => directive.name.value === 'join__type')
        .flatMap((directive) => directive.arguments?.filter((arg) => arg.name.value === 'key') ?? [])
        .map((arg) => (arg.value.kind === Kind.STRING ? arg.value.value.trim() : ''));
      return [...new Set(keys)].filter((key) => key && !key.includes(' ')).map((key) => ({ type, key }));
    });
    expect(singleKeys.length).toBeGreaterThanOrEqual(20);
    expect(
      singleKeys.map(({ type, key }) => `${type.name}.${key}: ${String(type.getFields()[key]?.type)}`).filter((field) => !field.endsWith(': ID!')),
    ).toEqual([]);
    expect(singleKeys.map(({ type, key }) => `${type.name}.${key}`)).toEqual(
      expect.arrayContaining([
        'User.userId',
        'Client.clientId',
        'Registration.registrationId',
        'Partner.id',
        'Policy.id',
        'ApiKey.id',
        'ApiKeyRequest.id',
        'Misp.id',
      ]),
    );
    // Arguments and input fields that carry one of those keys (a filter on part of a key takes text).
    const keyNames = ['userId', 'clientId', 'registrationId', 'partnerId', 'policyId', 'policyGroupId', 'apiKeyReqId', 'machineName'];
    const passed = all.filter(({ name }) => keyNames.includes(name));
    expect(passed.length).toBeGreaterThanOrEqual(40);
    const notId = passed.filter(({ type }) => getNamedType(type).name !== 'ID').map(({ at }) => at);
    expect(notId).toEqual(['ClientFilter.clientId', 'UserFilter.userId']);
  });
});

describe('subscriptions', () => {
  it('mirror the query of the same name (arguments and type), each declared live and guarded by a role row', async () => {
    const { LIVE_SUBSCRIPTIONS, ROLE_TABLE } = await import('../../gateway/components.js');
    const schema = supergraph();
    const subscriptions = Object.values(schema.getSubscriptionType()?.getFields() ?? {});
    expect(subscriptions.map((field) => field.name).sort()).toEqual(['abisSystems', 'registration', 'registrationCounts', 'stuckRegistrations']);
    const queries = schema.getQueryType()!.getFields();
    for (const field of subscriptions) {
      const query = queries[field.name];
      expect(query, field.name).toBeDefined();
      expect(String(field.type)).toBe(String(query!.type));
      // Each argument of the subscription is one of the query's, at least as strict.
      for (const arg of field.args)
        expect(String(query!.args.find((candidate) => candidate.name === arg.name)?.type).replace(/!$/, '')).toBe(String(arg.type).replace(/!$/, ''));
      expect(LIVE_SUBSCRIPTIONS.get(field.name)?.topics.length).toBeGreaterThan(0);
      expect(ROLE_TABLE[`Subscription.${field.name}`]).toEqual(ROLE_TABLE[`Query.${field.name}`]);
    }
  });
});

/** Every field answering a connection, with its coordinate. */
const connectionFields = (schema: GraphQLSchema) =>
  Object.values(schema.getTypeMap()).flatMap((type) =>
    isObjectType(type) && !type.name.startsWith('__')
      ? Object.values(type.getFields())
          .filter((field) => getNamedType(field.type).name.endsWith('Connection'))
          .map((field) => ({ at: `${type.name}.${field.name}`, field }))
      : [],
  );

describe('connections', () => {
  it('page backward on every list: each field answering a connection takes first, after, last and before, and counts last as a page size', () => {
    const lists = connectionFields(supergraph());
    expect(lists.length).toBeGreaterThanOrEqual(45);
    const missing = lists.filter(({ field }) => !['first', 'after', 'last', 'before'].every((name) => field.args.some((arg) => arg.name === name)));
    expect(missing.map(({ at }) => at)).toEqual([]);
    const uncounted = lists.filter(({ field }) => {
      const listSize = field.astNode?.directives?.find((directive) => directive.name.value === 'listSize');
      const slicing = listSize?.arguments?.find((arg) => arg.name.value === 'slicingArguments');
      return !(slicing?.value.kind === Kind.LIST && slicing.value.values.some((value) => value.kind === Kind.STRING && value.value === 'last'));
    });
    expect(uncounted.map(({ at }) => at)).toEqual([]);
  });

  it('are ordered in one shape on every list: orderBy takes {field: an enum, direction: SortDirection}', () => {
    const lists = connectionFields(supergraph());
    const shapeless = lists.filter(({ field }) => {
      const order = field.args.find((arg) => arg.name === 'orderBy');
      const input = order && getNamedType(order.type);
      if (!input || !isInputObjectType(input)) return true;
      const fields = input.getFields();
      return !(isEnumType(getNamedType(fields.field!.type)) && getNamedType(fields.direction?.type ?? fields.field!.type).name === 'SortDirection');
    });
    expect(shapeless.map(({ at }) => at)).toEqual([]);
  });
});

describe('fixed sets', () => {
  it("answers a registration's fixed sets as the enums the pipeline writes, never as text", async () => {
    const { TRANSACTION_STATUSES, TRANSACTION_TYPES } = await import('../../subgraphs/regproc/pipeline/stages.js');
    const { REGISTRATION_TYPES } = await import('../../subgraphs/regproc/registrations/inputs.js');
    const schema = supergraph();
    const fieldType = (type: string, field: string) => {
      const found = schema.getType(type);
      return isObjectType(found) ? String(found.getFields()[field]?.type) : undefined;
    };
    expect({
      registrationType: fieldType('Registration', 'registrationType'),
      supervisorStatus: fieldType('Registration', 'supervisorStatus'),
      transactionTypeCode: fieldType('RegistrationTransaction', 'transactionTypeCode'),
      statusCode: fieldType('RegistrationTransaction', 'statusCode'),
      verification: fieldType('ManualVerification', 'status'),
    }).toEqual({
      registrationType: 'RegistrationType!',
      supervisorStatus: 'SupervisorStatus!',
      transactionTypeCode: 'TransactionType!',
      statusCode: 'TransactionStatus!',
      verification: 'ManualVerificationStatus!',
    });
    // What the pipeline may write is exactly what the enums hold.
    const values = (name: string) => {
      const type = schema.getType(name);
      return isEnumType(type)
        ? type
            .getValues()
            .map((value) => value.name)
            .sort()
        : [];
    };
    expect(values('TransactionType')).toEqual([...TRANSACTION_TYPES].sort());
    expect(values('TransactionStatus')).toEqual([...TRANSACTION_STATUSES].sort());
    expect(values('RegistrationType')).toEqual([...REGISTRATION_TYPES].sort());
  });
});

describe('mutation payloads', () => {
  /** Mutations that change no entity of the graph: sign-ins and their tokens, one-time passwords, crypto, messages sent. */
  const CHANGE_NO_ENTITY = [
    'loginWithPassword',
    'loginWithClientSecret',
    'invalidateToken',
    'refreshToken',
    'sendOtp',
    'loginWithOtp',
    'changePassword',
    'drawUin',
    'encrypt',
    'decrypt',
    'sign',
    'validateSignature',
    'sendSms',
    'sendEmail',
    'generateOtp',
    'validateOtp',
    'validateMispLicense',
    'sendPreRegistrationOtp',
    'loginPreRegistration',
    'logoutPreRegistration',
    'refreshPreRegistrationConfiguration',
    'securezoneNotice',
  ];
  /** Deletions: they answer the key of what is gone, which a cache evicts. */
  const DELETIONS = [
    'decommissionDevice',
    'deleteDevice',
    'deleteDocumentCategory',
    'deleteDocumentType',
    'deleteHoliday',
    'deleteIdSchema',
    'deleteMachine',
    'deleteRegistrationCentre',
    'deletePreRegistration',
    'deletePreRegistrationDocument',
    'deletePreRegistrationDocuments',
  ];
  /**
   * Changes whose entity is not the caller's to read in the graph: a resident's locks on their own
   * identity (the identity record is the repository operators'), and the applications registration
   * took in (they leave pre-registration, moved to its consumed history).
   */
  const NOT_THE_CALLERS = ['updateAuthTypeStatus', 'reportConsumedPreRegistrations'];

  it('carry the entity each mutation changed (itself, or a field holding it); the exceptions are listed and shrink', () => {
    const schema = supergraph();
    const isEntity = (name: string) => {
      const type = schema.getType(name);
      return (
        isObjectType(type) && (type.astNode?.directives ?? []).some((d) => d.name.value === 'join__type' && d.arguments?.some((a) => a.name.value === 'key'))
      );
    };
    const without = Object.values(schema.getMutationType()!.getFields()).flatMap((mutation) => {
      const payload = getNamedType(mutation.type);
      if (!isObjectType(payload)) return [mutation.name];
      const result = Object.values(payload.getFields()).find((field) => field.name !== 'userErrors')!;
      const type = getNamedType(result.type);
      const carries = isEntity(type.name) || (isObjectType(type) && Object.values(type.getFields()).some((field) => isEntity(getNamedType(field.type).name)));
      return carries ? [] : [mutation.name];
    });
    expect(without.sort()).toEqual([...CHANGE_NO_ENTITY, ...DELETIONS, ...NOT_THE_CALLERS].sort());
    expect(without.length).toBeLessThan(Object.keys(schema.getMutationType()!.getFields()).length / 2);
  });
});

describe('casing', () => {
  it('names every field and argument in camelCase and every enum value in UPPER_CASE, but for deprecated names (REST keeps its own spellings, mapped at its edge)', () => {
    const schema = supergraph();
    const camel = /^[a-z][a-zA-Z0-9]*$/;
    const offenders: string[] = [];
    const check = (at: string, name: string, deprecated: boolean) => {
      if (!deprecated && (!camel.test(name) || /[A-Z]{2}/.test(name))) offenders.push(at);
    };
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || type.name.includes('__')) continue;
      if (isEnumType(type)) {
        for (const value of type.getValues()) if (!/^[A-Z][A-Z0-9_]*$/.test(value.name)) offenders.push(`${type.name}.${value.name}`);
        continue;
      }
      if (!isObjectType(type) && !isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        check(`${type.name}.${field.name}`, field.name, !!field.deprecationReason);
        for (const arg of 'args' in field ? field.args : []) check(`${type.name}.${field.name}(${arg.name})`, arg.name, !!arg.deprecationReason);
      }
    }
    // MISP statuses keep REST's spelling: they travel to and from the MISP endpoints as they are.
    expect(offenders).toEqual([]);
  });
});

describe('required inputs', () => {
  it('are non-null in the API wherever the input rules always require them; the subgraphs keep REST’s own codes for a missing value', () => {
    const all = inputs(supergraph());
    const byCoordinate = Object.fromEntries(all.map(({ at, type }) => [at, String(type)]));
    expect(byCoordinate).toMatchObject({
      'Query.preRegistration(preRegistrationId)': 'String!',
      'Query.registration(registrationId)': 'ID!',
      'BookPreRegistrationAppointmentInput.registrationCenterId': 'String!',
      'AppointmentRequest.timeSlotFrom': 'TimeOfDay!',
      'UpdateAuthTypeStatusInput.consentObtained': 'Boolean!',
      'AuthTypeStatusInput.isLocked': 'Boolean!',
      'SyncRegistrationsInput.timestamp': 'DateTime!',
      // optional on create, required on update: one input type, so it stays nullable
      'RegistrationCentreInput.id': 'String',
    });
    const served = buildSubgraphSchema({ typeDefs: componentSchemaDocument('prereg').document });
    expect(String(served.getQueryType()!.getFields().preRegistration!.args[0]!.type)).toBe('String');
  });

  it('leaves an input type alone where it is also taken without a rule', () => {
    const document = parse(`
      type Query { a(filter: F): Int  b(filter: F): Int  c(filter: G): Int }
      input F { x: String  y: String }
      input G { x: String }
    `);
    const rule = new Map([['filter', { required: true, fields: new Map([['x', { required: true }]]) }]]);
    const strict = buildASTSchema(
      withRequiredArguments(
        document,
        new Map([
          ['a', rule],
          ['c', rule],
        ]),
      ),
    );
    expect(String(strict.getQueryType()!.getFields().a!.args[0]!.type)).toBe('F!');
    expect(String(strict.getQueryType()!.getFields().b!.args[0]!.type)).toBe('F');
    expect(String((strict.getType('F') as GraphQLInputObjectType).getFields().x!.type)).toBe('String');
    expect(String((strict.getType('G') as GraphQLInputObjectType).getFields().x!.type)).toBe('String!');
  });
});
