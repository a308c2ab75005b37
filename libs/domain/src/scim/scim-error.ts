/** RFC 7644 section 3.12 `scimType` values the platform answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers';

/**
 * A refusal in SCIM's terms (RFC 7644 section 3.12): the HTTP status and, for 400 and 409, the
 * `scimType` an identity provider branches on. libs/http renders it as the SCIM error schema.
 */
export class ScimError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 412,
    readonly scimType: ScimType | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ScimError';
  }
}

export const scimErrors = {
  invalidValue: (detail: string) => new ScimError(400, 'invalidValue', detail),
  invalidSyntax: (detail: string) => new ScimError(400, 'invalidSyntax', detail),
  invalidFilter: (detail: string) => new ScimError(400, 'invalidFilter', detail),
  invalidPath: (detail: string) => new ScimError(400, 'invalidPath', detail),
  mutability: (detail: string) => new ScimError(400, 'mutability', detail),
  uniqueness: (detail: string) => new ScimError(409, 'uniqueness', detail),
  notFound: (detail: string) => new ScimError(404, undefined, detail),
  preconditionFailed: (detail: string) => new ScimError(412, undefined, detail),
  forbidden: (detail: string) => new ScimError(403, undefined, detail),
};
