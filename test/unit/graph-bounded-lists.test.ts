// No unbounded list in the portal graph: every list field of the composed supergraph and of each
// subgraph's SDL declares its bound with federation's @listSize (test/support/list-bounds.ts), a
// connection by its `first` (at most MAX_PAGE), and the root lists' declared sizes are the caps their
// services enforce (a whole list read as one row more than its cap and refused beyond, lib/graph/capped.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { SUPERGRAPH_FILE } from '../../gateway/compose.js';
import { capped, within } from '../../lib/graph/capped.js';
import { firstOf, MAX_PAGE } from '../../lib/graph/connection.js';
import { MOST_NODES } from '../../lib/graph/nodes.js';
import { ROLES } from '../../lib/roles.js';
import { componentSchemaDocument, sdlComponents } from '../../lib/subgraph.js';
import { MAX_CANDIDATES, MAX_REQUESTS_LISTED } from '../../subgraphs/abis/requests/service.js';
import { MAX_ABIS } from '../../subgraphs/abis/settings.js';
import { APP_IDS } from '../../subgraphs/auth/realms.js';
import { AUTH_TYPES, BIO_SUBTYPES } from '../../subgraphs/idrepo/locks/service.js';
import { MAX_USABLE_VIDS } from '../../subgraphs/idrepo/vids/policy.js';
import { MAX_LICENSE_PERMISSIONS } from '../../subgraphs/license/settings.js';
import { WEEK_DAYS } from '../../subgraphs/masterdata/centres/service.js';
import { LOCATION_DEPTH } from '../../subgraphs/masterdata/holidays/locations-service.js';
import { BIO_ATTRIBUTES } from '../../subgraphs/masterdata/idschema/fields.js';
import { LIST_LIMIT, wholeList } from '../../subgraphs/masterdata/paged.js';
import { MAX_FILTER_COLUMNS } from '../../subgraphs/masterdata/search-inputs.js';
import { MAX_FILTER_VALUES, MAX_PAGE_FETCH } from '../../subgraphs/masterdata/search.js';
import { MAX_GROUP_MANAGERS } from '../../subgraphs/partner/policies/groups-service.js';
import { NAME_SEARCH_LIMIT, WHOLE_LIST_LIMIT } from '../../subgraphs/partner/rows.js';
import { RESUME_LIMIT } from '../../subgraphs/regproc/pipeline/service.js';
import { MAX_RIDS, REGISTRATION_STAGES, REGISTRATION_STATUSES } from '../../subgraphs/regproc/registrations/inputs.js';
import { MAX_TRANSACTIONS_LISTED } from '../../subgraphs/regproc/registrations/service.js';
import { MAX_MATCHES_LISTED } from '../../subgraphs/regproc/verification/service.js';
import { SYNC_ENTITIES } from '../../subgraphs/syncdata/client-settings.js';
import { MAX_CONFIG_KEYS } from '../../lib/global-configuration.js';
import { MAX_CENTRE_USERS, REGISTRATION_CLIENT_ROLES } from '../../subgraphs/syncdata/service.js';
import { MAX_DOCUMENTS } from '../../subgraphs/prereg/documents/service.js';
import { listSizeOf, outputFields, unboundedLists } from '../support/list-bounds.js';

/** The largest list the platform answers at once: a filter-values answer (20 columns of 1,000 values). */
const MAX_DECLARED = MAX_FILTER_COLUMNS * MAX_FILTER_VALUES;

/** The bound each root list field declares is the cap its service enforces (or the size of what it lists). */
const ENFORCED: Record<string, number> = {
  // global ids: one screen's worth per call (nodeInputs)
  'Query.nodes': MOST_NODES,
  // master data: the spec's lists by language, whole (wholeList, KER-MSD-500 beyond)
  'Query.registrationCentresOfLanguage': LIST_LIMIT,
  'Query.machinesOfLanguage': LIST_LIMIT,
  'Query.devicesByLanguage': LIST_LIMIT,
  'Query.devicesByType': LIST_LIMIT,
  'Query.deviceSpecificationsByLanguage': LIST_LIMIT,
  'Query.deviceSpecificationsByType': LIST_LIMIT,
  'Query.zoneHierarchy': LIST_LIMIT,
  'Query.leafZones': LIST_LIMIT,
  'Query.documentCategoryList': LIST_LIMIT,
  'Query.validDocumentTypes': LIST_LIMIT,
  'Query.documentTypeList': LIST_LIMIT,
  'Query.allHolidays': LIST_LIMIT,
  'Query.holidaysById': LIST_LIMIT,
  'Query.locationsByLanguage': LIST_LIMIT,
  'Query.locationChildren': LIST_LIMIT,
  'Query.locationHierarchy': LOCATION_DEPTH,
  'Query.registrationCentreWorkingDays': WEEK_DAYS.length,
  'RegistrationCentre.workingDays': WEEK_DAYS.length,
  'ApplicantDocuments.documentCategories': LIST_LIMIT,
  'ApplicantDocumentCategory.documentTypes': LIST_LIMIT,
  'DeviceSearchPage.data': MAX_PAGE_FETCH,
  'DocumentCategorySearchPage.data': MAX_PAGE_FETCH,
  'DocumentTypeSearchPage.data': MAX_PAGE_FETCH,
  'HolidaySearchPage.holidays': MAX_PAGE_FETCH,
  'FilterValues.filters': MAX_FILTER_COLUMNS * MAX_FILTER_VALUES,
  'SchemaField.bioAttributes': BIO_ATTRIBUTES.length,
  // ID repository
  'Query.vidsByUin': MAX_USABLE_VIDS,
  'Query.authTypeStatus': AUTH_TYPES.length + BIO_SUBTYPES.length,
  'Identity.authTypeLocks': AUTH_TYPES.length + BIO_SUBTYPES.length,
  // license keys
  'Query.licensePermissions': MAX_LICENSE_PERMISSIONS,
  'Query.licensePermissionValues': MAX_LICENSE_PERMISSIONS,
  'LicenseKey.permissions': MAX_LICENSE_PERMISSIONS,
  // partner management: whole lists (PMS_COR_003 beyond)
  'Query.allMisps': WHOLE_LIST_LIMIT,
  'Query.mispsByName': NAME_SEARCH_LIMIT,
  'Query.policyList': WHOLE_LIST_LIMIT,
  'Query.policyGroupList': WHOLE_LIST_LIMIT,
  'Query.managedPartners': WHOLE_LIST_LIMIT,
  'PolicyGroup.managers': MAX_GROUP_MANAGERS,
  // registration processor and ABIS
  'Query.registrationTransactions': MAX_TRANSACTIONS_LISTED,
  'Query.registrationCounts': (REGISTRATION_STAGES.length + 1) * REGISTRATION_STATUSES.length,
  'Registration.manualVerifications': MAX_MATCHES_LISTED,
  'ManualVerificationGallery.matchedRefs': MAX_MATCHES_LISTED,
  'RegistrationSyncResult.response': MAX_RIDS,
  'RegistrationSyncResult.errors': MAX_RIDS,
  'RegistrationStatusResult.response': MAX_RIDS,
  'RegistrationStatusResult.errors': MAX_RIDS,
  'ResumedRegistrations.resumed': RESUME_LIMIT,
  'Query.abisSystems': MAX_ABIS,
  'AbisQuestionAsked.requests': MAX_ABIS,
  'AbisReferenceDeletion.requests': MAX_ABIS,
  'AbisRequest.candidates': MAX_CANDIDATES,
  'Registration.abisRequests': MAX_REQUESTS_LISTED,
  'Registration.candidates': MAX_ABIS * MAX_CANDIDATES,
  // auth and sync data
  'Query.authRealms': APP_IDS.length,
  'Query.syncRoles': ROLES.length,
  'Query.syncUserDetails': MAX_CENTRE_USERS,
  'SyncUserDetail.roles': REGISTRATION_CLIENT_ROLES.length,
  'SyncConfigs.registrationConfiguration': MAX_CONFIG_KEYS,
  'SyncConfigs.globalConfiguration': MAX_CONFIG_KEYS,
  'ClientSettings.dataToSync': SYNC_ENTITIES.length,
  // pre-registration: an application's documents, one per category (PRG_PAM_DOC_009 for one more)
  'Query.preRegistrationDocuments': MAX_DOCUMENTS,
  // pre-registration's configuration file, served whole (refused at reading beyond)
  'Query.preRegistrationConfiguration': MAX_CONFIG_KEYS,
};

const supergraph = () => readFileSync(SUPERGRAPH_FILE, 'utf8');

describe('the rule', () => {
  const sdl = (extra: string) => `
    type PageInfo { hasNextPage: Boolean! }
    type Thing { id: ID! tags: [String!]! @listSize(assumedSize: 8) }
    type ThingEdge { cursor: String! node: Thing! }
    type ThingConnection { edges: [ThingEdge!]! pageInfo: PageInfo! totalCount: Int! }
    type Page { data: [Thing!]! total: Int! }
    type Query {
      things(first: Int, after: String): ThingConnection! @listSize(slicingArguments: ["first"], sizedFields: ["edges"], requireOneSlicingArgument: false)
      page(pageSize: Int): Page! @listSize(slicingArguments: ["pageSize"], sizedFields: ["data"], requireOneSlicingArgument: false)
      few: [Thing!]! @listSize(assumedSize: 16)
      ${extra}
    }`;

  it('passes bounded lists, sliced connections and sized pages', () => {
    expect(unboundedLists(sdl(''))).toEqual([]);
  });

  it('fails on a list with no bound, a connection not sliced by first, and a page nothing sizes', () => {
    expect(unboundedLists(sdl('everything: [Thing!]!'))).toEqual([expect.stringMatching(/^Query\.everything: a list with no bound/)]);
    expect(unboundedLists(sdl('moreThings(first: Int): ThingConnection! @listSize(assumedSize: 5)'))).toEqual([
      expect.stringMatching(/^ThingConnection\.edges: a list with no bound, not sized by Query\.moreThings/),
      expect.stringMatching(/^Query\.moreThings: a connection, sliced by first/),
    ]);
    expect(unboundedLists(sdl('otherPage: Page!'))).toEqual([expect.stringMatching(/^Page\.data: a list with no bound, not sized by Query\.otherPage/)]);
  });

  it('fails on a bound declared wrongly', () => {
    expect(unboundedLists(sdl('huge: [Thing!]! @listSize(assumedSize: 1000000)'), MAX_DECLARED)).toEqual([
      expect.stringMatching(/^Query\.huge: assumedSize 1000000/),
    ]);
    expect(unboundedLists(sdl('sliced(limit: String): [Thing!]! @listSize(slicingArguments: ["limit"])'))).toEqual([
      expect.stringMatching(/^Query\.sliced: slicing argument limit is not an Int argument/),
    ]);
  });
});

describe('list bounds', () => {
  it('the composed supergraph declares a bound on every list field', () => {
    expect(unboundedLists(supergraph(), MAX_DECLARED)).toEqual([]);
  });

  // Each subgraph as served: its mutations answer payloads (lib/graph/payloads.ts), a list result keeping its bound.
  it.each(sdlComponents())('%s declares a bound on every list field it defines', (name) => {
    expect(unboundedLists(print(componentSchemaDocument(name).document), MAX_DECLARED)).toEqual([]);
  });

  it('a whole list reads one row more than its cap and is refused beyond it, never cut short', async () => {
    const takes: number[] = [];
    const rows = (n: number) => (take: number) => {
      takes.push(take);
      return Promise.resolve(Array.from({ length: Math.min(n, take) }, (_, i) => i));
    };
    const refuse = () => new Error('too many');
    await expect(capped(3, rows(3), refuse)).resolves.toEqual([0, 1, 2]);
    await expect(capped(3, rows(4), refuse)).rejects.toThrow('too many');
    expect(takes).toEqual([4, 4]);
    expect(() => within(2, [1, 2, 3], refuse)).toThrow('too many');
    // Master data's whole lists, as the REST paths answer them: KER-MSD-500 past LIST_LIMIT.
    await expect(wholeList('centres', 'registrationCentres', rows(LIST_LIMIT + 5))).rejects.toMatchObject({ code: 'KER-MSD-500' });
    await expect(wholeList('centres', 'registrationCentres', rows(LIST_LIMIT))).resolves.toHaveLength(LIST_LIMIT);
  });

  it('a connection pages at most MAX_PAGE rows: its declared slicing is true', () => {
    expect(MAX_PAGE).toBe(100);
    expect(() => firstOf({ first: MAX_PAGE + 1 })).toThrow();
    expect(firstOf({ first: MAX_PAGE })).toBe(MAX_PAGE);
  });

  it("each root list field's declared size is the cap its service enforces", () => {
    const types = outputFields(supergraph());
    const declared = (coordinate: string) => {
      const [type = '', field = ''] = coordinate.split('.');
      const definition = types.get(type)?.get(field);
      return definition && listSizeOf(definition)?.assumedSize;
    };
    expect(Object.fromEntries(Object.keys(ENFORCED).map((coordinate) => [coordinate, declared(coordinate)]))).toEqual(ENFORCED);
    // Every root list with an assumed size has its row here: a new one names the cap that makes it true.
    const rootLists = [...(types.get('Query')?.values() ?? [])]
      .filter((field) => listSizeOf(field)?.assumedSize !== undefined)
      .map((field) => `Query.${field.name.value}`);
    expect(rootLists.filter((coordinate) => !(coordinate in ENFORCED))).toEqual([]);
  });
});
