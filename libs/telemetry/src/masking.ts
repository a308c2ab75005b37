import { CREDENTIAL_SHAPES } from '@platform/domain';

/**
 * `text` with every credential-shaped part replaced by `[masked]` and the rest left readable:
 * JWTs, the credentials of an `Authorization` header, the platform's prefixed opaque values and
 * webhook secrets, and the value of any secret-named parameter or member. The shapes are the
 * masking service's own (libs/domain/src/masking/credential-shapes.ts), so a log line and a
 * masked document agree on what a credential is.
 */
export function maskSecrets(text: string): string {
  let masked = text;
  for (const { pattern } of CREDENTIAL_SHAPES) {
    masked = masked.replace(pattern, (match: string, ...rest: unknown[]) => {
      const secret = (rest.at(-1) as { secret?: string } | undefined)?.secret;
      return secret === undefined ? '[masked]' : `${match.slice(0, match.length - secret.length)}[masked]`;
    });
  }
  return masked;
}
