import { prereg } from '../../subgraphs/prereg/index.js';
import { documentsArea } from '../../subgraphs/prereg/documents/index.js';
import { PREREG_INTERNAL } from '../../subgraphs/prereg/errors.js';
import type { EnvelopeRules, RouteInput } from '../route.js';
import { routeFactory, type RouteSpec } from '../route-factory.js';
import type { z } from 'zod';

const ID_PREFIX = 'platform.pre-registration.';
/** A documents call that fails inside (its table or store out of reach) answers the spec's PRG_PAM_DOC_012; the others the component's code. */
const internalErrorCode = (rootField: string) => (rootField in documentsArea.schemas ? 'PRG_PAM_DOC_012' : PREREG_INTERNAL);
const made = routeFactory({ component: prereg, internalErrorCode, idPrefix: ID_PREFIX, pathPrefix: '/preregistration/v1' });

/**
 * A pre-registration route. Every request envelope is checked as MOSIP's
 * pre-registration checks it: `id` the call's own (PRG_PAM_CORE_001),
 * `version` 1.0 (PRG_PAM_CORE_002), `requesttime` present and well formed
 * (PRG_PAM_CORE_003) and on the current UTC date (PRG_CORE_REQ_013); so is
 * the envelope an upload carries in a form field (the document's).
 */
export function preregRoute<Input, Data, Variables, Response extends z.ZodType>(
  spec: RouteSpec<Input, Data, Variables, Response>,
): ReturnType<typeof made<Input, Data, Variables, Response>> {
  const rules: EnvelopeRules = { requestId: ID_PREFIX + spec.idSuffix, requestVersion: '1.0', requestTime: 'required', requestDayCode: 'PRG_CORE_REQ_013' };
  const input: RouteInput<Input> | undefined =
    spec.input?.from === 'envelope'
      ? { ...rules, ...spec.input }
      : spec.input?.from === 'upload' && spec.input.envelope
        ? { ...spec.input, envelope: { ...rules, ...spec.input.envelope } }
        : spec.input;
  return made({ ...spec, ...(input ? { input } : {}) });
}
