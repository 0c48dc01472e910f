import type { Request, RequestHandler, Response } from 'express';
import type { RequestContext } from '../lib/context.js';
import { INTERNAL_ERROR, PlatformError } from '../lib/errors.js';
import { authorize, type AccessTable } from '../lib/subgraph.js';
import type { Clock } from '../lib/time.js';
import type { UploadSpool } from '../lib/uploads/spool.js';
import { envelope, type ErrorItem } from './envelope.js';
import type { Operation } from './operations.js';
import { bodyParser, EdgeError, readInput } from './read-input.js';
import type { RestRoute } from './route.js';

/** Runs a named operation on the gateway in-process (no HTTP hop). */
export type OperationExecutor = (
  operation: Operation<unknown, unknown>,
  /** the operation's variables, as the route built them */
  variables: unknown,
  context: RequestContext,
) => Promise<{ data?: Record<string, unknown> | null; errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> }>;

export interface HandlerDeps {
  execute: OperationExecutor;
  contextFor: (req: Request) => RequestContext;
  clock: Clock;
  maxBodyBytes: number;
  /** the signature service's detached JWS over a response body */
  signResponse: (body: string) => Promise<string>;
  /** PLATFORM_SPEC_OPEN_ENDPOINTS: endpoints the spec flags open need no token */
  specOpenEndpoints: boolean;
  /** the role table, to check the caller before a body is read */
  roleTable: AccessTable;
  /** where `upload` routes stream their file */
  uploads: UploadSpool;
}

const GRAPHQL_INPUT_CODES = new Set(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED']);

function errorItems(route: RestRoute, errors: NonNullable<Awaited<ReturnType<OperationExecutor>>['errors']>): ErrorItem[] {
  return errors.map((error) => {
    const code = error.extensions?.code;
    if (typeof code !== 'string' || code === INTERNAL_ERROR) return { errorCode: route.internalErrorCode, message: 'Internal server error' };
    if (GRAPHQL_INPUT_CODES.has(code)) return { errorCode: route.codeFor('request', false), message: error.message };
    return { errorCode: code, message: error.message };
  });
}

/**
 * The result a route reads, each mutation payload replaced by its result. A
 * payload's first user error is thrown as the answer: what the REST path
 * answered before mutations had payloads (the first invalid field), byte for byte.
 */
function settlePayloads(route: RestRoute, data: Record<string, unknown>): Record<string, unknown> {
  if (!route.operation.payloads.length) return data;
  const settled = { ...data };
  for (const key of route.operation.payloads) {
    const payload = data[key] as { result?: unknown; userErrors: { code: string; message: string }[] } | null | undefined;
    if (!payload) continue;
    const [refusal] = payload.userErrors;
    if (refusal) throw new PlatformError(refusal.code, refusal.message);
    settled[key] = payload.result;
  }
  return settled;
}

/** The Express handler of one route: envelope in, named operation, envelope out. */
export function routeHandler(route: RestRoute, deps: HandlerDeps): RequestHandler {
  const parser = bodyParser(route, deps.maxBodyBytes);
  const envelopeOf = route.envelope?.build ?? envelope;
  const reply = async (res: Response, version: unknown, body: Parameters<typeof envelope>[1], status = 200) => {
    const text = JSON.stringify(
      envelopeOf(
        {
          id: route.id,
          version: typeof version === 'string' ? version : '1.0',
          versionKey: route.versionKey,
          now: deps.clock.now(),
        },
        { ...body, emptyErrors: route.emptyErrors ?? null },
      ),
    );
    if (route.signResponse) res.setHeader('Response-Signature', await deps.signResponse(text));
    res.status(status).type('application/json').send(text);
  };

  return async (req, res) => {
    let version: unknown;
    try {
      const context = deps.contextFor(req);
      // The caller's token and roles are checked before a body is read: a stranger cannot make the server buffer uploads.
      try {
        for (const field of route.rootFields) await authorize(deps.roleTable[field], field, context, deps.specOpenEndpoints);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        const item = { errorCode: error.code, message: error.message };
        if (route.httpAuthStatus) {
          // ABIS.md: any refused token is KER-ATH-401 "Authentication Failed" with HTTP 401; a refused role 403.
          const forbidden = error.code === 'KER-ATH-403';
          const answer = forbidden ? item : { errorCode: 'KER-ATH-401', message: 'Authentication Failed' };
          return void (await reply(res, version, { response: null, errors: [answer] }, forbidden ? 403 : 401));
        }
        throw new EdgeError(item);
      }
      const read = await readInput(route, req, res, parser, deps, async () => (await context.principal()).subject);
      version = read.version;
      // A PlatformError from here on is the answer: a wire value the graph has no value for (`fromWire`),
      // a payload's user error, a record the graph answers null for (`found`).
      const result = await Promise.resolve()
        .then(() => deps.execute(route.operation, route.variables(read.input, req, read.files ?? []), context))
        .finally(() => (read.stagedId ? deps.uploads.release(read.stagedId) : undefined));
      if (result.errors?.length) return await reply(res, version, { response: null, errors: errorItems(route, result.errors) });
      const answer = route.result(settlePayloads(route, result.data ?? {}), { res });
      if (route.rawSuccess) return void res.status(200).type(route.rawSuccess.contentType).send(answer);
      await reply(res, version, { response: answer });
    } catch (error) {
      if (error instanceof EdgeError) return void (await reply(res, version, { response: null, errors: [error.item] }));
      if (error instanceof PlatformError)
        return void (await reply(res, version, { response: null, errors: [{ errorCode: error.code, message: error.message }] }));
      req.log?.error({ err: error }, 'REST handler failed');
      if (!res.headersSent)
        res.status(200).json(
          envelopeOf(
            { id: route.id, version: '1.0', versionKey: route.versionKey, now: deps.clock.now() },
            {
              response: null,
              errors: [{ errorCode: route.internalErrorCode, message: 'Internal server error' }],
              emptyErrors: route.emptyErrors ?? null,
            },
          ),
        );
    }
  };
}
