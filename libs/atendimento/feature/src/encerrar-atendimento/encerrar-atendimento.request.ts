import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export class EncerrarAtendimentoRequest {
  @ApiPropertyOptional({ maxLength: 2000, description: 'Sem ele, o serviço escreve um resumo a partir da conversa.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  resumo?: string;
}
