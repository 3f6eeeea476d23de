import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsString, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { caracteresDoFaq, FAQ_LIMITES, type EntradaFaq } from '@trilha/atendimento-domain';

export class EntradaFaqRequest {
  @ApiProperty({ maxLength: FAQ_LIMITES.pergunta, example: 'Qual o prazo de entrega para o Nordeste?' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(FAQ_LIMITES.pergunta)
  pergunta: string;

  @ApiProperty({ maxLength: FAQ_LIMITES.resposta, example: 'Entregamos no Nordeste em até 7 dias úteis.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(FAQ_LIMITES.resposta)
  resposta: string;
}

const ehFaq = (value: unknown): value is EntradaFaq[] =>
  Array.isArray(value) && value.every((entrada) => typeof entrada?.pergunta === 'string' && typeof entrada?.resposta === 'string');

/** At most `FAQ_LIMITES.caracteres` in the questions and answers together (an FAQ of another shape is the other validators' to refuse). */
const CaracteresDoFaqNoMaximo = () =>
  ValidateBy({
    name: 'caracteresDoFaq',
    validator: {
      validate: (faq: unknown) => !ehFaq(faq) || caracteresDoFaq(faq) <= FAQ_LIMITES.caracteres,
      defaultMessage: () => `faq deve ter no máximo ${FAQ_LIMITES.caracteres} caracteres somando perguntas e respostas`,
    },
  });

export class CriarAgenteRequest {
  @ApiProperty({ maxLength: 100, example: 'Dúvidas de entrega' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  nome: string;

  @ApiProperty({ maxLength: 500 })
  @IsString()
  @MaxLength(500)
  descricao: string;

  @ApiProperty({
    type: [EntradaFaqRequest],
    minItems: 1,
    maxItems: FAQ_LIMITES.entradas,
    description: `Até ${FAQ_LIMITES.entradas} entradas e ${FAQ_LIMITES.caracteres} caracteres somando perguntas e respostas.`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(FAQ_LIMITES.entradas)
  @CaracteresDoFaqNoMaximo()
  @ValidateNested({ each: true })
  @Type(() => EntradaFaqRequest)
  faq: EntradaFaqRequest[];
}
