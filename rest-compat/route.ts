import { formatTimestamp } from '../lib/time.js';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Operation } from './operations.js';
import type { EnvelopeFormat, VersionKey } from './envelope.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * How a request envelope is checked. `requestId`: the envelope `id` the spec names for the call
 * (`platform.id.create`); a request without it is refused with the route's code for `id` missing, one
 * with another id with its code for `id` invalid, before anything runs.
 */
export interface EnvelopeRules {
  requestTime?: 'required' | 'optional';
  requestId?: string;
  /** the envelope `version` the call requires (refused with the route's code for `version`) */
  requestVersion?: string;
  /** the code of a `requesttime` not on the server's current UTC date (pre-registration's PRG_CORE_REQ_013) */
  requestDayCode?: string;
}

/** Where a route's input comes from, and its shape (validated at the edge, and documented). */
export type RouteInput<Input = unknown> =
  /** `bodyOptional`: a request without any body reads as an empty `request` (the refresh token may come as a cookie). */
  | ({ from: 'envelope'; schema: z.ZodType<Input>; bodyOptional?: boolean } & EnvelopeRules)
  | { from: 'query'; schema: z.ZodType<Input> }
  /** the whole JSON body, for a spec variant with fields beside `request` (`schema` checks `id`, `version`, times and `request` itself) */
  | { from: 'body'; schema: z.ZodType<Input> }
  /** multipart/form-data: text fields validated by `schema`; the uploaded files are `variables`' third argument */
  | { from: 'form'; schema: z.ZodType<Input>; fileField: string; maxFileBytes: number; maxFiles: number }
  /**
   * The body as text, whatever it holds (a JSON string literal, as the registration sync sends), with
   * the request headers (names in lower case): `schema` checks {body, headers}. `contentType`: the only
   * type accepted, when given.
   */
  | { from: 'raw'; schema: z.ZodType<Input>; contentType?: string }
  /**
   * multipart/form-data with one large file (a registration packet), streamed to the upload spool as it
   * arrives, never held in memory: `schema` checks {fields, upload}, where `upload` describes the staged
   * file (its id, name, size and SHA-256) for the operation to claim. The spool file is removed after the call.
   * `envelope`: a text field that holds a JSON request envelope (pre-registration's `Document request`), checked
   * by its rules as a JSON body's envelope is; its `request` is what the schema reads as `request`.
   */
  | { from: 'upload'; schema: z.ZodType<Input>; envelope?: EnvelopeRules & { field: string } }
  | { from: 'none' };

/** What a `raw` route's schema reads: the body text and the request headers. */
export interface RawInput {
  body: string;
  headers: Readonly<Record<string, string>>;
}

/** What an `upload` route's schema reads: the form's text fields and the staged file, if one was sent. */
export interface UploadInput {
  fields: Readonly<Record<string, string>>;
  upload?: { id: string; filename: string; size: number; sha256: string; truncated: boolean };
  /** the `request` of the envelope field, when the route declares one */
  request?: unknown;
}

/** An uploaded file of a multipart request, as routes receive it. */
export interface UploadedFile {
  fieldname: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A path parameter: always present once Express has matched the route. */
export const pathParam = (req: Request, name: string): string => {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
};

/** A field the operation always fills in for this call, though the shared SDL type lets it be null. */
/** A look-up the graph answers with null for a missing record: the spec's not-found error for REST callers. */
export function found<T>(value: T | null | undefined, absent: () => Error): T {
  if (value === null || value === undefined) throw absent();
  return value;
}

export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`${what} is missing from the operation's result`);
  return value;
}

export interface ResultHelpers {
  res: Response;
}

/**
 * One REST path of the spec: its envelope, the named GraphQL operation it
 * runs, and its request and response shapes, declared once for validation and
 * for the OpenAPI document. The operation's variables and result are typed
 * from the SDL (generated), the input from its zod schema, and the result
 * mapping must produce what the response schema documents: a copy that
 * drifts fails to compile. Routes are made by the route factory
 * (route-factory.ts), which derives the codes and the envelope id.
 */
// The list of all routes holds RestRoute<unknown, ...>: `variables` and `result` are methods (bivariant),
// so a route typed by the factory fits the list, and the handler gives each exactly what it declared.
export interface RestRoute<Input = unknown, Data = unknown, Variables = unknown, Response extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** the spec's path, parameters as {name} */
  path: string;
  summary: string;
  /** the response envelope's `id` */
  id: string;
  versionKey?: VersionKey;
  /** a variant response envelope of the spec, instead of the standard one */
  envelope?: EnvelopeFormat;
  /** what an empty success `errors` is: null (kernel) or [] (partner management) */
  emptyErrors?: null | [];
  input: RouteInput<Input>;
  operation: Operation<Data, Variables>;
  /** "<Type>.<field>" of each root field the operation selects, as the role table names them */
  rootFields: readonly string[];
  variables(input: Input, req: Request, files: readonly UploadedFile[]): Variables;
  /** the `response` member on success */
  response: Response;
  result(data: Data, helpers: ResultHelpers): z.input<Response>;
  /** the spec's code for a field that is missing or malformed ("request" for the envelope itself) */
  codeFor: (field: string, missing: boolean) => string;
  /** the code for a failure that is not the caller's */
  internalErrorCode: string;
  /** add MOSIP's Response-Signature header: a detached JWS over the response body */
  signResponse?: boolean;
  /**
   * The success answer is the result itself, not an envelope (a plain-text
   * message, a file's bytes), of this content type; failures keep the envelope.
   */
  rawSuccess?: { contentType: string };
  /** a refused token answers HTTP 401 and a refused role 403 (with the envelope), instead of 200 */
  httpAuthStatus?: boolean;
}

/**
 * A value as the spec writes it on the wire (`Approved`, `De-Active`) as the
 * graph's value for it; one the wire does not have is refused as the
 * component refuses it (the handler answers the error), so REST answers what
 * it answered when the graph took the wire's strings.
 */
export function fromWire<V>(value: string, values: Readonly<Record<string, V>>, refuse: () => Error): V {
  if (!Object.hasOwn(values, value)) throw refuse();
  return values[value] as V;
}

/**
 * An instant as the wire writes it, for a DateTime variable: the component's own check (its error when it is not
 * one). When it is refused, `earlier` runs first: the checks the component makes before the timestamp's, so a
 * request with two faults is answered as before; a request whose instant is fine leaves them to the operation.
 */
export function instantFromWire(text: string, check: (text: string) => Date, earlier?: () => void): Date {
  try {
    return check(text);
  } catch (error) {
    earlier?.();
    throw error;
  }
}

/** `/a/{b}` → `/a/:b` */
export const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** An instant as the REST layer writes it (ISO 8601, UTC); generated result types give `Date | string`. */
export const timestamp = (value: Date | string): string => (typeof value === 'string' ? value : formatTimestamp(value));

/** The same, for an instant that may be unset. */
export const optionalTimestamp = (value: Date | string | null | undefined): string | null => (value ? timestamp(value) : null);
