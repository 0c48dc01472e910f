import { z } from 'zod';

/** C0 controls and DEL: never part of an identifier; NUL cannot even be stored by PostgreSQL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- as above
const NUL = /\u0000/;

/** An identifier, name or code: at most `max` characters, no control characters. */
export const identifier = (max = 256) =>
  z
    .string()
    .max(max)
    .refine((value) => !CONTROL.test(value), { message: 'must not contain control characters' });

/** Free text (messages, bodies, documents): line breaks allowed, NUL not. */
export const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !NUL.test(value), { message: 'must not contain NUL characters' });
