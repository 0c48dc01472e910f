import { MAX_JSON_DEPTH, nestsDeeperThan } from '../lib/input.js';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import busboy from 'busboy';
import multer from 'multer';
import type { z } from 'zod';
import type { RequestContext } from '../lib/context.js';
import { describeIssue } from '../lib/graph/inputs.js';
import { INTERNAL_ERROR, PlatformError } from '../lib/errors.js';
import { authorize, type AccessTable } from '../lib/subgraph.js';
import { parseTimestamp, type Clock } from '../lib/time.js';
import { envelope, type ErrorItem } from './envelope.js';
import type { Operation } from './operations.js';
import type { UploadSpool } from '../lib/uploads/spool.js';
import type { RawInput, RestRoute, UploadedFile, UploadInput } from './route.js';

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

/** A caller mistake found at the edge: answered with the route's code, before anything runs. */
class EdgeError extends Error {
  constructor(readonly item: ErrorItem) {
    super(item.message);
  }
}

const GRAPHQL_INPUT_CODES = new Set(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED']);

function runParser(parser: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) =>
    parser(req, res, ((error?: unknown) => (error ? reject(error instanceof Error ? error : new Error('request parser failed')) : resolve())) as NextFunction),
  );
}

function issueItem(route: RestRoute, issue: z.core.$ZodIssue): ErrorItem {
  const { field, missing, message } = describeIssue(issue);
  return { errorCode: route.codeFor(field, missing), message };
}

function validate(route: RestRoute, schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new EdgeError(issueItem(route, parsed.error.issues[0]!));
}

async function readForm(
  route: RestRoute,
  req: Request,
  res: Response,
  parser: RequestHandler,
): Promise<{ input: unknown; version: unknown; files?: UploadedFile[] }> {
  const input = route.input as Extract<RestRoute['input'], { from: 'form' }>;
  try {
    await runParser(parser, req, res);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    const message =
      code === 'LIMIT_FILE_SIZE'
        ? `a file exceeds ${input.maxFileBytes} bytes`
        : code === 'LIMIT_FILE_COUNT' || code === 'LIMIT_UNEXPECTED_FILE'
          ? `at most ${input.maxFiles} files, in field ${input.fileField}`
          : 'malformed multipart form data';
    throw new EdgeError({ errorCode: route.codeFor(input.fileField, false), message });
  }
  const fields = validate(route, input.schema, { ...(req.body as object | undefined) }) as Record<string, unknown>;
  const files = ((req.files as Express.Multer.File[] | undefined) ?? []).map((file): UploadedFile => ({
    fieldname: file.fieldname,
    filename: file.originalname,
    contentType: file.mimetype,
    content: file.buffer,
  }));
  return { input: fields, files, version: undefined };
}

/** A `raw` route's body text and headers, validated by its schema. */
async function readRaw(
  route: RestRoute,
  req: Request,
  res: Response,
  parser: RequestHandler,
  maxBodyBytes: number,
): Promise<{ input: unknown; version: unknown }> {
  const input = route.input as Extract<RestRoute['input'], { from: 'raw' }>;
  if (input.contentType && req.headers['content-length'] !== '0' && req.is(input.contentType) === false)
    throw new EdgeError({ errorCode: route.codeFor('request', false), message: `the request body must be sent as Content-Type: ${input.contentType}` });
  try {
    await runParser(parser, req, res);
  } catch (error) {
    const type = (error as { type?: string }).type;
    throw new EdgeError({
      errorCode: route.codeFor('request', false),
      message: type === 'entity.too.large' ? `request body exceeds ${maxBodyBytes} bytes` : 'unreadable request body',
    });
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name.toLowerCase()] = value;
  const body = typeof req.body === 'string' ? req.body : '';
  return { input: validate(route, input.schema, { body, headers } satisfies RawInput), version: undefined };
}

/** Form fields an upload may carry beside its file, and their size: anything more is not a packet upload. */
const UPLOAD_FIELDS = { fields: 20, fieldSize: 64 * 1024, parts: 24 };

/**
 * An `upload` route's multipart body: the first file streamed to the spool
 * (hashed and counted as it arrives), further files drained and ignored,
 * text fields kept. Returns the staged upload's id for release after the call.
 */
async function readUpload(route: RestRoute, req: Request, spool: UploadSpool, owner: string): Promise<{ input: unknown; version: unknown; stagedId?: string }> {
  const input = route.input as Extract<RestRoute['input'], { from: 'upload' }>;
  if (req.is('multipart/form-data') !== 'multipart/form-data')
    throw new EdgeError({ errorCode: route.codeFor('request', false), message: 'the request body must be sent as Content-Type: multipart/form-data' });
  const fields: Record<string, string> = {};
  let staging: Promise<Awaited<ReturnType<UploadSpool['stage']>>> | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const parser = busboy({ headers: req.headers, limits: { ...UPLOAD_FIELDS, files: 1 } });
      parser.on('file', (_name, stream, info) => {
        if (staging) return void stream.resume();
        staging = spool.stage(stream, owner, info.filename ?? '');
        // A failure surfaces when the staging is awaited; this keeps it from being unhandled meanwhile.
        staging.catch(() => undefined);
      });
      parser.on('field', (name, value) => void (fields[name] = value));
      parser.on('error', reject);
      parser.on('close', resolve);
      req.on('aborted', () => reject(new Error('upload aborted')));
      req.pipe(parser);
    });
  } catch {
    const staged = await staging?.catch(() => undefined);
    if (staged) await spool.release(staged.id);
    throw new EdgeError({ errorCode: route.codeFor('request', false), message: 'malformed multipart form data' });
  }
  const staged = await staging;
  const value: UploadInput = {
    fields,
    ...(staged ? { upload: { id: staged.id, filename: staged.filename, size: staged.size, sha256: staged.sha256, truncated: staged.truncated } } : {}),
  };
  try {
    return { input: validate(route, input.schema, value), version: undefined, ...(staged ? { stagedId: staged.id } : {}) };
  } catch (error) {
    if (staged) await spool.release(staged.id);
    throw error;
  }
}

/**
 * The envelope `id` a route requires, as MOSIP's request validators check it
 * (the ID repository's IdRequestValidator: "Missing Input Parameter - id",
 * "Invalid Input Parameter - id"), with the route's own codes.
 */
function checkRequestId(route: RestRoute, expected: string, id: unknown): void {
  if (id === undefined || id === null || id === '') throw new EdgeError({ errorCode: route.codeFor('id', true), message: 'Missing Input Parameter - id' });
  if (id !== expected) throw new EdgeError({ errorCode: route.codeFor('id', false), message: `Invalid Input Parameter - id: expected ${expected}` });
}

async function readInput(
  route: RestRoute,
  req: Request,
  res: Response,
  parser: RequestHandler,
  deps: Pick<HandlerDeps, 'maxBodyBytes' | 'uploads'>,
  owner: () => Promise<string>,
): Promise<{ input: unknown; version: unknown; files?: UploadedFile[]; stagedId?: string }> {
  const { input } = route;
  const { maxBodyBytes } = deps;
  if (input.from === 'none') return { input: {}, version: undefined };
  if (input.from === 'upload') return readUpload(route, req, deps.uploads, await owner());
  if (input.from === 'query') return { input: validate(route, input.schema, req.query), version: undefined };
  if (input.from === 'form') return readForm(route, req, res, parser);
  if (input.from === 'raw') return readRaw(route, req, res, parser, maxBodyBytes);
  // null: no body at all (an empty one counts as none); false: a body of another type, refused before it is read.
  const json = req.headers['content-length'] === '0' ? null : req.is('application/json');
  if (json === null && input.from === 'envelope' && input.bodyOptional) return { input: validate(route, input.schema, {}), version: undefined };
  if (json === null) throw new EdgeError({ errorCode: route.codeFor('request', true), message: 'request body must be a JSON request envelope' });
  if (json === false)
    throw new EdgeError({ errorCode: route.codeFor('request', false), message: 'the request body must be sent as Content-Type: application/json' });
  try {
    await runParser(parser, req, res);
  } catch (error) {
    const type = (error as { type?: string }).type;
    const message = type === 'entity.too.large' ? `request body exceeds ${maxBodyBytes} bytes` : 'request body is not valid JSON';
    throw new EdgeError({ errorCode: route.codeFor('request', false), message });
  }
  const body: unknown = req.body;
  if (nestsDeeperThan(body, MAX_JSON_DEPTH))
    throw new EdgeError({ errorCode: route.codeFor('request', false), message: `request body nests deeper than ${MAX_JSON_DEPTH} levels` });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new EdgeError({ errorCode: route.codeFor('request', true), message: 'request body must be a JSON request envelope' });
  }
  if (input.from === 'body') return { input: validate(route, input.schema, body), version: (body as Record<string, unknown>).version };
  const { id, request, requesttime, version } = body as Record<string, unknown>;
  if (input.requestId !== undefined) checkRequestId(route, input.requestId, id);
  if (requesttime === undefined ? input.requestTime === 'required' : typeof requesttime !== 'string' || !parseTimestamp(requesttime)) {
    throw new EdgeError({ errorCode: route.codeFor('requesttime', requesttime === undefined), message: "requesttime must be yyyy-MM-dd'T'HH:mm:ss.SSS'Z'" });
  }
  if (request === undefined || request === null) throw new EdgeError({ errorCode: route.codeFor('request', true), message: 'request is required' });
  return { input: validate(route, input.schema, request), version };
}

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
  const { input } = route;
  const parser =
    input.from === 'form'
      ? multer({ storage: multer.memoryStorage(), limits: { fileSize: input.maxFileBytes + 1, files: input.maxFiles, fieldSize: deps.maxBodyBytes } }).array(
          input.fileField,
          input.maxFiles,
        )
      : input.from === 'raw'
        ? express.text({ limit: deps.maxBodyBytes, type: () => true })
        : express.json({ limit: deps.maxBodyBytes, type: () => true, strict: true });
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
