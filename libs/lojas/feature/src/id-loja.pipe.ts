import { ParseIntPipe } from '@nestjs/common';
import { InvalidInputException } from '@trilha/http';

/** `idLoja` path parameter: a positive integer, else a 400 naming it. */
export const idLojaPipe = new ParseIntPipe({
  exceptionFactory: () => new InvalidInputException([{ campo: 'idLoja', mensagem: 'idLoja deve ser um número inteiro' }]),
});
