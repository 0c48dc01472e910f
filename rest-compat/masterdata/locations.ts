import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { holidaysArea, holidaysSchemas as schemas } from '../../subgraphs/masterdata/holidays/index.js';
import { pathParam, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { MASTERDATA } from './shared.js';

/** MOSIP's location service answers any failure of an operation with its one code, the code the holidays area gives its inputs. */
const route = routeFactory({ ...MASTERDATA, idPrefix: 'platform.', internalErrorCode: (rootField) => holidaysArea.codeFor('request', false, rootField) });

const location = z.object({
  code: z.string(),
  name: z.string(),
  hierarchyLevel: z.number(),
  hierarchyName: z.string(),
  parentLocCode: z.string().nullable(),
  langCode: z.string(),
  isActive: z.boolean(),
});
const locations = z.object({ locations: z.array(location) });

const toLocation = ({ parentCode, ...row }: ops.LocationRecordFragment) => ({ ...row, parentLocCode: parentCode ?? null });

/** The location reads by (code, language). */
const locationRead = (
  path: string,
  summary: string,
  document: typeof ops.LocationsHierarchyDocument | typeof ops.LocationsChildrenDocument,
  pick: (data: ops.LocationsHierarchyQuery & ops.LocationsChildrenQuery) => ops.LocationRecordFragment[],
) =>
  route({
    method: 'get',
    path,
    summary,
    idSuffix: 'location.read',
    operation: document as typeof ops.LocationsHierarchyDocument,
    variables: (_input, req) => ({ code: pathParam(req, 'locationcode'), langCode: pathParam(req, 'langcode') }),
    response: z.object({ locations: z.array(location) }),
    result: (data) => ({ locations: pick(data as ops.LocationsHierarchyQuery & ops.LocationsChildrenQuery).map(toLocation) }),
  });

export const locationsRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/locations',
    summary: 'Add a location to the hierarchy',
    idSuffix: 'location.create',
    input: { from: 'envelope', schema: schemas.createLocation },
    operation: ops.LocationsCreateDocument,
    response: location,
    result: (data) => toLocation(data.createLocation),
  }),
  route({
    method: 'get',
    path: '/locations/{langcode}',
    summary: 'The locations of a language',
    idSuffix: 'location.read',
    operation: ops.LocationsByLanguageDocument,
    variables: (_input, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: locations,
    result: (data) => ({ locations: data.locationsByLanguage.map(toLocation) }),
  }),
  locationRead(
    '/locations/{locationcode}/{langcode}',
    'A location and its ancestors, nearest first',
    ops.LocationsHierarchyDocument,
    (data) => data.locationHierarchy,
  ),
  locationRead(
    '/locations/immediatechildren/{locationcode}/{langcode}',
    'The children of a location',
    ops.LocationsChildrenDocument,
    (data) => data.locationChildren,
  ),
];
