/** The platform's version, as `/health` and the OpenAPI document give it and traces carry it. */
export const PLATFORM_VERSION = '0.1.0';
