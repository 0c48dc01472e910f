import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import busboy from 'busboy';
import multer from 'multer';
import type { z } from 'zod';
import { describeIssue } from '../lib/graph/inputs.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../lib/input.js';
import { parseTimestamp } from '../lib/time.js';
import type { Clock } from '../lib/time.js';
import type { UploadSpool } from '../lib/uploads/spool.js';
import type { ErrorItem } from './envelope.js';
import type { EnvelopeRules, RawInput, RestRoute, UploadedFile, UploadInput } from './route.js';

// The edge of a REST call: its body read as the route's input says (an envelope, a query, a form, raw text, a
// streamed upload) and validated by the route's schema; a caller's mistake is answered with the route's code.

/** A caller mistake found at the edge: answered with the route's code, before anything runs. */
export class EdgeError extends Error {
  constructor(readonly item: ErrorItem) {
    super(item.message);
  }
}

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
async function readUpload(
  route: RestRoute,
  req: Request,
  deps: { uploads: UploadSpool; clock: Clock },
  owner: string,
): Promise<{ input: unknown; version: unknown; stagedId?: string }> {
  const spool = deps.uploads;
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
  try {
    const envelope = input.envelope ? fieldEnvelope(route, input.envelope, fields, deps.clock) : undefined;
    const value: UploadInput = {
      fields,
      ...(staged ? { upload: { id: staged.id, filename: staged.filename, size: staged.size, sha256: staged.sha256, truncated: staged.truncated } } : {}),
      ...(envelope ? { request: envelope.request } : {}),
    };
    return { input: validate(route, input.schema, value), version: envelope?.version, ...(staged ? { stagedId: staged.id } : {}) };
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

/** A route's input, read as its `input` says and validated by its schema, with the envelope's `version` for the answer. */
export async function readInput(
  route: RestRoute,
  req: Request,
  res: Response,
  parser: RequestHandler,
  deps: { maxBodyBytes: number; uploads: UploadSpool; clock: Clock },
  owner: () => Promise<string>,
): Promise<{ input: unknown; version: unknown; files?: UploadedFile[]; stagedId?: string }> {
  const { input } = route;
  const { maxBodyBytes } = deps;
  if (input.from === 'none') return { input: {}, version: undefined };
  if (input.from === 'upload') return readUpload(route, req, deps, await owner());
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
  const { request, version } = openEnvelope(route, input, body as Record<string, unknown>, deps.clock);
  return { input: validate(route, input.schema, request), version };
}

/** An envelope checked by its rules (id, version, requesttime and its day, a `request` present): its `request` and `version`. */
function openEnvelope(route: RestRoute, rules: EnvelopeRules, body: Record<string, unknown>, clock: Clock): { request: unknown; version: unknown } {
  const { id, request, requesttime, version } = body;
  if (rules.requestId !== undefined) checkRequestId(route, rules.requestId, id);
  if (rules.requestVersion !== undefined && version !== rules.requestVersion) {
    const missing = version === undefined || version === null || version === '';
    throw new EdgeError({
      errorCode: route.codeFor('version', missing),
      message: missing ? 'Missing Input Parameter - version' : `Invalid Input Parameter - version: expected ${rules.requestVersion}`,
    });
  }
  const sentAt = typeof requesttime === 'string' ? parseTimestamp(requesttime) : undefined;
  if (requesttime === undefined ? rules.requestTime === 'required' : !sentAt) {
    throw new EdgeError({ errorCode: route.codeFor('requesttime', requesttime === undefined), message: "requesttime must be yyyy-MM-dd'T'HH:mm:ss.SSS'Z'" });
  }
  if (rules.requestDayCode && sentAt && sentAt.toISOString().slice(0, 10) !== clock.now().toISOString().slice(0, 10))
    throw new EdgeError({ errorCode: rules.requestDayCode, message: 'Request date should be current date' });
  if (request === undefined || request === null) throw new EdgeError({ errorCode: route.codeFor('request', true), message: 'request is required' });
  return { request, version };
}

/** The envelope an upload carries in a text field (a JSON string), checked as a JSON body's envelope is. */
function fieldEnvelope(route: RestRoute, rules: EnvelopeRules & { field: string }, fields: Readonly<Record<string, string>>, clock: Clock) {
  const text = fields[rules.field];
  if (text === undefined || text === '') throw new EdgeError({ errorCode: route.codeFor('request', true), message: `the part "${rules.field}" is required` });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EdgeError({ errorCode: route.codeFor('request', false), message: `the part "${rules.field}" is not valid JSON` });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || nestsDeeperThan(body, MAX_JSON_DEPTH))
    throw new EdgeError({ errorCode: route.codeFor('request', false), message: `the part "${rules.field}" must be a JSON request envelope` });
  return openEnvelope(route, rules, body as Record<string, unknown>, clock);
}

/** The body parser of a route's input: multipart for a form, text for a raw body, JSON otherwise (an upload streams by itself). */
export function bodyParser(route: RestRoute, maxBodyBytes: number): RequestHandler {
  const { input } = route;
  if (input.from === 'form')
    return multer({ storage: multer.memoryStorage(), limits: { fileSize: input.maxFileBytes + 1, files: input.maxFiles, fieldSize: maxBodyBytes } }).array(
      input.fileField,
      input.maxFiles,
    );
  if (input.from === 'raw') return express.text({ limit: maxBodyBytes, type: () => true });
  return express.json({ limit: maxBodyBytes, type: () => true, strict: true });
}
