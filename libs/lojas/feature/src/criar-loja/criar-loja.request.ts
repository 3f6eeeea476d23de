import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class CriarLojaRequest {
  @ApiProperty({ maxLength: 150, example: 'Loja Exemplo' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(150)
  nome: string;
}
