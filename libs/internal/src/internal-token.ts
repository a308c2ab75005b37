/** The header (HTTP) and metadata key (gRPC) carrying INTERNAL_TOKEN between our processes. */
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
