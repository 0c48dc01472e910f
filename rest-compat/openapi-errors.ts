import type { Access } from '../lib/roles.js';
import { schemaOf, type JsonSchema } from './openapi-request.js';
import type { RestRoute } from './route.js';

// The codes a route can answer in `errors[].errorCode`, as far as its declaration tells them: who may call it (the role
// table), its edge checks (its field codes, `codeFor`) and its internal code. The component's own rules add theirs.

export interface RouteErrorCode {
  code: string;
  /** the causes, in words */
  when: string[];
}

/**
 * The fields a schema names, as dotted paths (array items as `.0`, as a validation issue's path reads), a few levels
 * deep; `required` when its object requires it (only such a field can be missing).
 */
function fieldPaths(schema: JsonSchema, prefix = '', depth = 0): { path: string; required: boolean }[] {
  if (depth > 3) return [];
  const branches = [schema, ...(['anyOf', 'oneOf', 'allOf'] as const).flatMap((key) => (schema[key] as JsonSchema[] | undefined) ?? [])];
  const fields = new Map<string, boolean>();
  for (const branch of branches) {
    const items = branch.items as JsonSchema | undefined;
    if (items && prefix) for (const inner of fieldPaths(items, `${prefix}.0`, depth + 1)) fields.set(inner.path, inner.required);
    const required = (branch.required as string[] | undefined) ?? [];
    for (const [name, property] of Object.entries((branch.properties as Record<string, JsonSchema> | undefined) ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      fields.set(path, (fields.get(path) ?? false) || required.includes(name));
      for (const inner of fieldPaths(property, path, depth + 1)) fields.set(inner.path, inner.required);
    }
  }
  return [...fields].map(([path, required]) => ({ path, required }));
}

/** The codes of the caller's token and roles, as the handler answers them before anything is read. */
function accessCodes(route: RestRoute, access: Access | undefined): [string, string][] {
  if (!access) return [['KER-ATH-403', 'the operation is open to no role']];
  if (access.kind === 'public') return [];
  const roles: [string, string][] = access.kind === 'roles' ? [['KER-ATH-403', 'the token has none of the roles allowed']] : [];
  if (route.httpAuthStatus) return [['KER-ATH-401', 'no valid token (HTTP 401)'], ...roles.map(([code, why]): [string, string] => [code, `${why} (HTTP 403)`])];
  return [
    ['KER-ATH-006', 'no cookie and no Authorization header'],
    ['KER-ATH-007', 'no token among the cookies'],
    ['KER-ATH-008', 'the token was revoked (logged out)'],
    ['KER-ATH-401', 'the token is invalid or expired'],
    ...roles,
  ];
}

/** The codes of the edge checks: the envelope's rules, the body as a whole, each field the input schema names. */
function inputCodes(route: RestRoute): [string, string][] {
  const { input } = route;
  if (input.from === 'none') return [];
  const code = (field: string, missing: boolean, what: string): [string, string] => [route.codeFor(field, missing), what];
  const codes: [string, string][] = [];
  const rules = input.from === 'envelope' ? input : input.from === 'upload' ? input.envelope : undefined;
  if (rules?.requestId) codes.push(code('id', true, '`id` missing'), code('id', false, `\`id\` not ${rules.requestId}`));
  if (rules?.requestVersion) codes.push(code('version', true, '`version` missing'), code('version', false, `\`version\` not ${rules.requestVersion}`));
  if (rules) {
    if (rules.requestTime === 'required') codes.push(code('requesttime', true, '`requesttime` missing'));
    codes.push(code('requesttime', false, '`requesttime` malformed'));
    if (rules.requestDayCode) codes.push([rules.requestDayCode, "`requesttime` not on the server's current date"]);
  }
  if (input.from !== 'query' && !(input.from === 'envelope' && input.bodyOptional)) codes.push(code('request', true, 'no request body'));
  if (input.from !== 'query') codes.push(code('request', false, 'the body is malformed or of another type'));
  if (input.from === 'form') codes.push(code(input.fileField, false, `too many or too large files in \`${input.fileField}\``));
  for (const { path, required } of fieldPaths(schemaOf(input.schema))) {
    if (required) codes.push(code(path, true, `\`${path}\` missing`));
    codes.push(code(path, false, `\`${path}\` invalid`));
  }
  return codes;
}

/** The causes of each code, grouped by code, a few causes each (a code may stand for many fields). */
function grouped(causes: [string, string][], shown = 6): RouteErrorCode[] {
  const byCode = new Map<string, string[]>();
  for (const [code, why] of causes) {
    const list = byCode.get(code) ?? [];
    if (!list.includes(why)) list.push(why);
    byCode.set(code, list);
  }
  return [...byCode].map(([code, when]) => ({ code, when: when.length > shown ? [...when.slice(0, shown), `and ${when.length - shown} more`] : when }));
}

/** What a route may answer in `errors`, by code. */
export function routeErrorCodes(route: RestRoute, access: Access | undefined): RouteErrorCode[] {
  return grouped([...accessCodes(route, access), ...inputCodes(route), [route.internalErrorCode, 'a failure that is not the caller\u2019s']]);
}

/** The codes as Markdown, for the operation's description (what Swagger UI shows). */
export function describeCodes(codes: readonly RouteErrorCode[]): string {
  const lines = codes.map(({ code, when }) => `- \`${code}\`: ${when.join('; ')}`);
  return ["Error codes (in `errors[].errorCode`; the component's own rules may answer others):", ...lines].join('\n');
}
