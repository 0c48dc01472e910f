import { z } from 'zod';
import { identifier } from '../../../lib/input.js';
import { VID_STATUSES } from './rules.js';

/** A number of digits; its rules (length, check digit, patterns) are the service's, from the global configuration. */
const number = identifier(64).pipe(z.string().trim().min(1));
const vidType = identifier(32).pipe(z.string().trim().min(1));
const vidStatus = z.string().pipe(z.enum(VID_STATUSES));

/** The arguments of the VID root fields, for GraphQL and REST alike. */
export const vidsSchemas = {
  createVid: z.object({ vidType, uin: number }),
  uinByVid: z.object({ vid: number }),
  vidsByUin: z.object({ uin: number }),
  updateVidStatus: z.object({ vid: number, vidStatus }),
  regenerateVid: z.object({ vid: number }),
  deactivateVids: z.object({ uin: number }),
  reactivateVids: z.object({ uin: number }),
};
