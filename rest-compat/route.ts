import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Operation } from './operations.js';
import type { VersionKey } from './envelope.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Where a route's input comes from, and its shape (validated at the edge, and documented). */
export type RouteInput =
  /** `bodyOptional`: a request without any body reads as an empty `request` (the refresh token may come as a cookie) */
  | { from: 'envelope'; schema: z.ZodType; requestTime?: 'required' | 'optional'; bodyOptional?: boolean }
  | { from: 'query'; schema: z.ZodType }
  /** multipart/form-data: text fields validated by `schema`; uploaded files arrive as `files` beside them */
  | { from: 'form'; schema: z.ZodType; fileField: string; maxFileBytes: number; maxFiles: number }
  | { from: 'none' };

export interface ResultHelpers {
  res: Response;
}

/**
 * One REST path of the spec: its envelope, the named GraphQL operation it
 * runs, and its request and response shapes, declared once for validation and
 * for the OpenAPI document.
 */
// The defaults erase the types in the list of all routes; defineRoute checks each route against its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface RestRoute<Input = any, Data = any> {
  method: HttpMethod;
  /** the spec's path, parameters as {name} */
  path: string;
  summary: string;
  /** the response envelope's `id` */
  id: string;
  versionKey?: VersionKey;
  /** what an empty success `errors` is: null (kernel) or [] (partner management) */
  emptyErrors?: null | [];
  input: RouteInput;
  operation: Operation;
  variables: (input: Input, req: Request) => Record<string, unknown>;
  /** the `response` member on success */
  response: z.ZodType;
  result: (data: Data, helpers: ResultHelpers) => unknown;
  /** the spec's code for a field that is missing or malformed ("request" for the envelope itself) */
  codeFor: (field: string, missing: boolean) => string;
  /** the code for a failure that is not the caller's */
  internalErrorCode: string;
  /** add MOSIP's Response-Signature header: a detached JWS over the response body */
  signResponse?: boolean;
}

export const defineRoute = <Input, Data>(route: RestRoute<Input, Data>): RestRoute<Input, Data> => route;

/** `/a/{b}` → `/a/:b` */
export const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
