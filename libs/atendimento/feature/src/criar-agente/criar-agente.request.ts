import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsString, MaxLength, ValidateNested } from 'class-validator';

export class EntradaFaqRequest {
  @ApiProperty({ maxLength: 500, example: 'Qual o prazo de entrega para o Nordeste?' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  pergunta: string;

  @ApiProperty({ maxLength: 2000, example: 'Entregamos no Nordeste em até 7 dias úteis.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  resposta: string;
}

export const FAQ_MAX = 1000;

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

  @ApiProperty({ type: [EntradaFaqRequest], minItems: 1, maxItems: FAQ_MAX })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(FAQ_MAX)
  @ValidateNested({ each: true })
  @Type(() => EntradaFaqRequest)
  faq: EntradaFaqRequest[];
}
