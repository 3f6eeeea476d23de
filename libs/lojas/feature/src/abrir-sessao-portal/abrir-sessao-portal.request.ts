import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MAX_SEGREDO_PORTAL } from '../auth/sessoes-portal.service';

export class AbrirSessaoPortalRequest {
  @ApiProperty({ maxLength: MAX_SEGREDO_PORTAL, description: 'O segredo do link: o que vem depois de # na sua url.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SEGREDO_PORTAL)
  link: string;
}
