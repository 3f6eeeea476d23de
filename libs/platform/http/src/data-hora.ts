import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { isISO8601, registerDecorator } from 'class-validator';
import { OPENAPI_EXTENSIONS } from './internal-api/internal-headers';

/**
 * ISO 8601 date and time with an offset (`Z` or `±hh:mm`), in the years
 * 1000 to 9999. Offsets go from -14:00 to +14:00, the range of the world's time zones (and
 * PostgreSQL's).
 */
const DATA_HORA_COM_FUSO = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-](0\d:[0-5]\d|1[0-3]:[0-5]\d|14:00))$/;
const DATA_HORA_MAX = 40;

export function ehDataHoraComFuso(value: unknown): value is string {
  return typeof value === 'string' && value.length <= DATA_HORA_MAX && DATA_HORA_COM_FUSO.test(value) && isISO8601(value, { strict: true, strictSeparator: true });
}

/**
 * A date and time in ISO 8601 with an offset, at most 40 characters, that exists in the calendar.
 * `exampleDaysAgo`: the API accepts only a recent one, so the document's example is that many
 * days before the moment it is served (OPENAPI_EXTENSIONS.exampleDaysAgo).
 */
export function DataHora({ exampleDaysAgo, ...api }: ApiPropertyOptions & { exampleDaysAgo?: number } = {}): PropertyDecorator {
  const example = exampleDaysAgo === undefined ? { example: '2026-11-22T10:15:00-03:00' } : { [OPENAPI_EXTENSIONS.exampleDaysAgo]: exampleDaysAgo };
  return applyDecorators(
    ApiProperty({ type: String, format: 'date-time', pattern: DATA_HORA_COM_FUSO.source, maxLength: DATA_HORA_MAX, ...example, ...api } as ApiPropertyOptions),
    (target: object, propertyName: string | symbol) =>
      registerDecorator({
        name: 'dataHoraComFuso',
        target: target.constructor,
        propertyName: propertyName as string,
        validator: {
          validate: ehDataHoraComFuso,
          defaultMessage: (args) => `${args?.property} deve ser data e hora ISO 8601 com fuso, como 2026-11-22T10:15:00-03:00`,
        },
      }),
  );
}
