import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REGISTRY, REST_ROUTES } from '../../gateway/components.js';
import type { RestRoute } from '../../rest-compat/route.js';
import { routeOrigin, type RouteOrigin } from '../../rest-compat/route-factory.js';

const nameOf = (route: RestRoute) => `${route.method.toUpperCase()} ${route.path}`;
const originOf = (route: RestRoute): RouteOrigin => {
  const origin = routeOrigin(route);
  if (!origin) throw new Error(`${nameOf(route)} was not made by a route factory`);
  return origin;
};

/** The root field of a route's operation, read here from its text, apart from the factory's own reading. */
function rootFieldOf(route: RestRoute): string {
  const definition = parse(route.operation.query).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === route.operation.name,
  );
  const [field] = definition?.selectionSet.selections ?? [];
  if (field?.kind !== Kind.FIELD) throw new Error(`${route.operation.name} selects no root field`);
  return field.name.value;
}

/** The names of a schema's fields, when it is an object: the fields whose codes the spec distinguishes. */
const fieldsOf = (schema: z.ZodType | undefined): string[] => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);

/** Every field a route can name in an answer: the envelope's own, its request's and its root field's arguments. */
function probedFields(route: RestRoute, inputs: z.ZodType | undefined): string[] {
  const own = route.input.from === 'none' ? [] : fieldsOf(route.input.schema);
  const fields = ['request', 'id', 'requesttime', 'version', ...own, ...fieldsOf(inputs)];
  return [...new Set([...fields, ...fields.map((field) => `request.${field}`)])];
}

describe('the route factory', () => {
  it('made every REST route of the registry', () => {
    expect(REST_ROUTES.filter((route) => !routeOrigin(route)).map(nameOf)).toEqual([]);
  });

  it("answers a bad field of a route with its own component's input code for the route's root field", () => {
    for (const { component, routes } of REGISTRY) {
      for (const route of routes) {
        const origin = originOf(route);
        expect(origin.component, nameOf(route)).toBe(component.name);
        expect(origin.rootField, nameOf(route)).toBe(rootFieldOf(route));
        if (origin.overrides.includes('codeFor')) continue;
        const inputs = component.inputs!;
        for (const field of probedFields(route, inputs.schemas[origin.rootField])) {
          for (const missing of [true, false]) {
            expect(route.codeFor(field, missing), `${nameOf(route)}: ${field}, missing ${missing}`).toBe(inputs.codeFor(field, missing, origin.rootField));
          }
        }
      }
    }
  });

  it('lets only the routes the spec gives other codes override what they derive', () => {
    const overridden = REST_ROUTES.filter((route) => originOf(route).overrides.length).map(
      (route) => `${nameOf(route)}: ${originOf(route).overrides.join(', ')}`,
    );
    expect(overridden).toEqual([
      // the key manager's answer under sync data's path
      'GET /v1/syncdata/publickey/{applicationId}: internalErrorCode',
      // MOSIP's e-mail notifier and OTP generator are services of their own
      'POST /v1/emailnotifier/email/send: internalErrorCode',
      'POST /v1/otpmanager/otp/generate: internalErrorCode',
      // the client login's one code; the token checks answer anything malformed as an authentication failure
      'POST /v1/authmanager/authenticate/clientidsecretkey: internalErrorCode',
      'GET /v1/authmanager/authorize/admin/validateToken: codeFor',
      'POST /v1/authmanager/authorize/invalidateToken: codeFor',
      // a holiday read without arguments, which the component's inputs have no code for
      'GET /v1/masterdata/holidays: codeFor',
    ]);
  });

  it("gives a route its module's internal code and the envelope id its prefix starts", () => {
    const byPath = (path: string) => REST_ROUTES.find((route) => route.path === path && route.method === 'post')!;
    expect(byPath('/v1/masterdata/holidays')).toMatchObject({ id: 'platform.holiday.create', internalErrorCode: 'KER-MSD-065', emptyErrors: null });
    expect(byPath('/partnermanagement/v1/misps')).toMatchObject({
      id: 'platform.partnermanagement.misp.create',
      internalErrorCode: 'PMS_COR_003',
      emptyErrors: [],
    });
    expect(byPath('/v1/cryptomanager/encrypt')).toMatchObject({ id: 'io.platform.cryptomanager.encrypt', internalErrorCode: 'KER-CRY-500' });
  });
});
