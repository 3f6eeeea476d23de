import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { FlagsEvento } from '@trilha/delivery-domain';
import { propriedadesDasFlags } from '../shared';

/** POST /webhook/novo: the URL, and each flag of NOTIFICATIONS, optional with its default. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface below gives the type of the properties propriedadesDasFlags declares
export class RegistrarWebhookRequest {
  @ApiProperty({ maxLength: 2048, example: 'https://minhaloja.example/webhooks/trilha', description: 'URL HTTPS pública que responde 200 à verificação.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url: string;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the flags' properties, which propriedadesDasFlags declares below
export interface RegistrarWebhookRequest extends Partial<FlagsEvento> {}

propriedadesDasFlags(RegistrarWebhookRequest, (notificacao) => [
  ApiProperty({ type: Boolean, required: false, default: notificacao.padrao, description: `Receber ${notificacao.evento}.` }),
  IsOptional(),
  IsBoolean(),
]);
