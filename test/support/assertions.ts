import { expect } from 'vitest';
import type { TestPlatform } from './platform.js';

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** An envelope carrying exactly one error with this code (and message, when given). */
export function expectError(json: any, code: string, message?: RegExp): void {
  expect(json.response).toBeNull();
  expect(json.errors).toHaveLength(1);
  expect(json.errors[0].errorCode, json.errors[0].message).toBe(code);
  if (message) expect(json.errors[0].message).toMatch(message);
  expect(json.responsetime).toMatch(TIMESTAMP);
}

/** Sends a request and asserts it is refused with `code`, HTTP 200, and changes no row anywhere. */
export async function expectRejected(t: TestPlatform, send: () => Promise<{ status: number; json: any }>, code: string, message?: RegExp): Promise<void> {
  const before = await t.snapshot();
  const { status, json } = await send();
  expect(status).toBe(200);
  expectError(json, code, message);
  expect(await t.snapshot()).toEqual(before);
}
