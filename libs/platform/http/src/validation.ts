import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';

export interface FieldError {
  campo: string;
  mensagem: string;
}

/** A 400 carrying every invalid field, rendered as `erros` in the problem document. */
export class InvalidInputException extends BadRequestException {
  constructor(readonly erros: FieldError[], detail = 'Um ou mais campos são inválidos.') {
    super(detail);
  }
}

export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const campo = `${prefix}${error.property}`;
    const own = Object.values(error.constraints ?? {}).map((mensagem) => ({ campo, mensagem }));
    return [...own, ...flattenValidationErrors(error.children ?? [], `${campo}.`)];
  });
}

/**
 * Validation of every body, query and path parameter: unknown fields and wrong types are
 * 400s naming the field, never silently dropped or coerced.
 */
export function strictValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new InvalidInputException(flattenValidationErrors(errors)),
  });
}
