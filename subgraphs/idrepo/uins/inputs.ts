import { z } from 'zod';

/** The arguments of the UIN pool's root fields: none. */
export const uinsSchemas = { drawUin: z.object({}), uinPool: z.object({}) };
