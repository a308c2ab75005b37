import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { validationFailed } from '@platform/domain';

/** DTO validation whose failures are domain errors, so they leave as problem+json 400. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors: ValidationError[]) => validationFailed(describe(errors)),
  });
}

function describe(errors: ValidationError[]): string {
  return errors
    .flatMap((e) =>
      Object.values(e.constraints ?? {}).concat(e.children?.length ? [describe(e.children)] : []),
    )
    .join('; ');
}
