import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** A required, non-empty string of at most `max` characters. */
export function Texto(max: number, api: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: String, maxLength: max, ...api } as ApiPropertyOptions),
    IsString({ message: '$property deve ser um texto' }),
    IsNotEmpty({ message: '$property não pode ser vazio' }),
    MaxLength(max, { message: `$property deve ter no máximo ${max} caracteres` }),
  );
}

/** An optional string of at most `max` characters (absent or null when not informed). */
export function TextoOpcional(max: number, api: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: String, maxLength: max, required: false, ...api } as ApiPropertyOptions),
    IsOptional(),
    IsString({ message: '$property deve ser um texto' }),
    IsNotEmpty({ message: '$property não pode ser vazio' }),
    MaxLength(max, { message: `$property deve ter no máximo ${max} caracteres` }),
  );
}
