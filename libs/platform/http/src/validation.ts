import { BadRequestException, ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { compileReader } from '@trilha/contracts';

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

/** The number in one of class-validator's default messages ("… must not be less than 1"). */
const numberIn = (message: string) => /(-?\d+(\.\d+)?)/.exec(message)?.[1] ?? '';

/**
 * class-validator's messages in Portuguese, by constraint: one entry for each constraint the
 * request classes use. A message a request class wrote itself is kept as it is.
 */
const EM_PORTUGUES: Record<string, (campo: string, original: string) => string> = {
  whitelistValidation: (campo) => `${campo} não é um campo aceito`,
  isDefined: (campo) => `${campo} é obrigatório`,
  isNotEmpty: (campo) => `${campo} não pode ser vazio`,
  isString: (campo) => `${campo} deve ser um texto`,
  isInt: (campo) => `${campo} deve ser um número inteiro`,
  isNumber: (campo) => `${campo} deve ser um número`,
  isBoolean: (campo) => `${campo} deve ser true ou false`,
  isObject: (campo) => `${campo} deve ser um objeto`,
  isArray: (campo) => `${campo} deve ser uma lista`,
  isEmail: (campo) => `${campo} deve ser um endereço de e-mail`,
  isIn: (campo, original) => `${campo} deve ser um destes valores: ${original.split(': ').slice(1).join(': ')}`,
  min: (campo, original) => `${campo} deve ser no mínimo ${numberIn(original)}`,
  max: (campo, original) => `${campo} deve ser no máximo ${numberIn(original)}`,
  minLength: (campo, original) => `${campo} deve ter no mínimo ${numberIn(original)} caracteres`,
  maxLength: (campo, original) => `${campo} deve ter no máximo ${numberIn(original)} caracteres`,
  arrayMinSize: (campo, original) => `${campo} deve ter no mínimo ${numberIn(original)} itens`,
  arrayMaxSize: (campo, original) => `${campo} deve ter no máximo ${numberIn(original)} itens`,
  matches: (campo) => `${campo} não está no formato esperado`,
  nestedValidation: (campo) => `${campo} deve ser um objeto ou uma lista de objetos`,
};

/** class-validator's own messages are English sentences about the property; ours are Portuguese. */
const DEFAULT_MESSAGE = / (must|should) /;

export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const campo = `${prefix}${error.property}`;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, mensagem]) => ({
      campo,
      mensagem: DEFAULT_MESSAGE.test(mensagem) && EM_PORTUGUES[constraint] ? EM_PORTUGUES[constraint](campo, mensagem) : mensagem,
    }));
    return [...own, ...flattenValidationErrors(error.children ?? [], `${campo}.`)];
  });
}

/** A UTF-16 surrogate without its pair: not a character, and refused by PostgreSQL and JSON parsers alike. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every text in `value` (at any depth) that no store's data can hold: U+0000, or a lone surrogate. */
export function unacceptableTexts(value: unknown, campo: string): FieldError[] {
  if (typeof value === 'string') {
    if (value.includes('\0')) return [{ campo, mensagem: `${campo} contém o caractere nulo (U+0000), que não é aceito` }];
    if (LONE_SURROGATE.test(value)) return [{ campo, mensagem: `${campo} contém um caractere UTF-16 incompleto (surrogate sem par)` }];
    return [];
  }
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => unacceptableTexts(item, campo ? `${campo}.${key}` : key));
}

/**
 * Validation of every body, query and path parameter: unknown fields and wrong types are
 * 400s naming the field, never silently dropped or coerced; so is a text no store's data can
 * hold (U+0000, a lone surrogate), in any field, before anything reads it.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const erros = unacceptableTexts(value, metadata.type === 'param' || typeof value === 'string' ? (metadata.data ?? '') : '');
      if (erros.length > 0) throw new InvalidInputException(erros);
    }
    return super.transform(value, metadata);
  }

  /**
   * An instance its class's compiled reader accepts, with no property the class does not
   * declare, has nothing class-validator would refuse or strip (`compileReader`); any other is
   * validated by class-validator, which names every problem.
   */
  protected override validate(object: object, validatorOptions?: ValidatorOptions): Promise<ValidationError[]> | ValidationError[] {
    const { constructor } = object;
    if (typeof constructor === 'function' && compileReader(constructor as new () => object)(object, true)) return [];
    return super.validate(object, validatorOptions);
  }

  /**
   * Nest looks for binary values (Buffers, typed arrays) in nested properties, reading
   * class-validator's metadata on every request whose value holds an object. What this pipe
   * sees is parsed JSON, query strings and route parameters: none can hold one.
   */
  protected override findNestedBinaryValues(): ValidationError[] {
    return [];
  }
}

export function strictValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new InvalidInputException(flattenValidationErrors(errors)),
  });
}
