import type { z } from 'zod';
import { defineRoute, type RestRoute } from '../route.js';

/** The spec's code for a bad field of a partner management request: PMS_COR_001 missing, PMS_COR_002 malformed. */
export const pmsCodeFor = (_field: string, missing: boolean) => (missing ? 'PMS_COR_001' : 'PMS_COR_002');

/** A partner management route: a success carries `errors: []`, a failure that is not the caller's PMS_COR_003. */
export const pmsRoute = <Input, Data, Variables, Response extends z.ZodType>(
  route: Omit<RestRoute<Input, Data, Variables, Response>, 'emptyErrors' | 'codeFor' | 'internalErrorCode'> &
    Partial<Pick<RestRoute<Input, Data, Variables, Response>, 'codeFor'>>,
): RestRoute<Input, Data, Variables, Response> => defineRoute({ codeFor: pmsCodeFor, ...route, emptyErrors: [], internalErrorCode: 'PMS_COR_003' });
