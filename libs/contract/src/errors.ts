import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { BEARER_ERROR_CODES, OAUTH_ERROR_CODES } from '@platform/domain';

@ApiSchema({
  name: 'OAuthError',
  description:
    'RFC 6749 section 5.2 error object: every error of the token, introspection and revocation endpoints (and of `POST /api/v1/auth/token`). `invalid_client` is 401, `temporarily_unavailable` 503, `server_error` 500, every other code 400.',
})
export class OAuthErrorDto {
  @ApiProperty({ enum: OAUTH_ERROR_CODES })
  error: string;

  @ApiProperty({ description: 'Human-readable; never a secret, SQL or stack trace.' })
  error_description: string;
}

@ApiSchema({
  name: 'Problem',
  description:
    'RFC 9457 problem details (`application/problem+json`): every error outside the OAuth endpoints and the browser pages. `type` is always `about:blank`, so `title` is the HTTP status phrase and `detail` says what went wrong.',
})
export class ProblemDto {
  @ApiProperty({ enum: ['about:blank'] })
  type: string;

  @ApiProperty({ example: 'Not Found' })
  title: string;

  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599 })
  status: number;

  @ApiPropertyOptional()
  detail?: string;
}

@ApiSchema({
  name: 'BearerProblem',
  description:
    'A refused Bearer credential (RFC 6750): problem details plus the RFC 6750 `error` code, which the `WWW-Authenticate` challenge repeats. Absent when no credential was sent at all (bare `Bearer realm="oauth"` challenge, RFC 6750 section 3.1).',
})
export class BearerProblemDto extends ProblemDto {
  @ApiPropertyOptional({ enum: BEARER_ERROR_CODES })
  error?: string;
}

@ApiSchema({
  name: 'PermissionProblem',
  description:
    'A permission refused by the policy engine: problem details (403) with `error: "insufficient_scope"` and the id and author of the decision, to quote when asking an administrator.',
})
export class PermissionProblemDto extends ProblemDto {
  @ApiProperty({ enum: ['insufficient_scope'] })
  error: string;

  @ApiProperty({ description: 'Identifier of the policy decision.' })
  decision_id: string;

  @ApiProperty({ type: 'string', isArray: true, description: 'The policies that made the decision.' })
  decided_by: string[];
}
