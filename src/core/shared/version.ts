/** The SDK's own version (package.json `version`). */
export const SDK_VERSION = '1.0.0';

/** The API version the SDK targets (openapi.json `info.version`). */
export const API_VERSION = '2.4.0';
