import { describe, expect, it } from 'vitest';
import { readCredentials, tokenCookie } from '../../lib/credentials.js';

describe('reading credentials', () => {
  it('takes the token from the Authorization cookie among others', () => {
    expect(readCredentials({ cookie: 'a=b; Authorization=Platform-Tokenabc.def.ghi; c=d' })).toEqual({ token: 'abc.def.ghi', cookiesPresent: true });
  });
  it('takes the token from the header in both forms', () => {
    expect(readCredentials({ authorization: 'Platform-Tokenxyz' }).token).toBe('xyz');
    expect(readCredentials({ authorization: 'Bearer xyz' }).token).toBe('xyz');
  });
  it('tells no cookies from cookies without a token', () => {
    expect(readCredentials({})).toEqual({ token: undefined, cookiesPresent: false });
    expect(readCredentials({ cookie: 'theme=dark' })).toEqual({ token: undefined, cookiesPresent: true });
    expect(readCredentials({ cookie: 'Authorization=Platform-Token' })).toEqual({ token: undefined, cookiesPresent: true });
  });
  it('writes the cookie with the contract attributes', () => {
    expect(tokenCookie('t', 60)).toBe('Authorization=Platform-Tokent; Max-Age=60; Path=/; Secure; HttpOnly; SameSite=Lax');
  });
});
