import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { ApiSchemaExtras, DataHora } from '@trilha/http';
import { IdentificacaoDoPedido } from '../salvar-pedido/salvar-pedido.request';
import { Texto, TextoOpcional } from '../validation';

const semChave = (body: RegistrarEventoRequest) => body.codigoRastreio == null && body.chaveNFe == null && body.identificador == null;
const UMA_CHAVE = 'informe ao menos um de codigoRastreio, chaveNFe ou identificador';
const CHAVES = ['codigoRastreio', 'chaveNFe', 'identificador'];

/** POST /pedidoRastreio/evento (docs/API.md section 4). */
@ApiSchemaExtras({ anyOf: CHAVES.map((chave) => ({ required: [chave], properties: { [chave]: { type: 'string' } } })) })
export class RegistrarEventoRequest extends IdentificacaoDoPedido {
  // At least one of the three keys; the first present is the volume's chaveEnvio.
  @ApiProperty({ type: String, maxLength: 100, required: false, example: 'BR123456789BR', description: 'Código de rastreio do volume.' })
  @ValidateIf((body: RegistrarEventoRequest) => body.codigoRastreio != null || semChave(body))
  @IsString({ message: `codigoRastreio deve ser um texto; ${UMA_CHAVE}` })
  @IsNotEmpty({ message: 'codigoRastreio não pode ser vazio' })
  @MaxLength(100, { message: 'codigoRastreio deve ter no máximo 100 caracteres' })
  codigoRastreio?: string;

  @ApiProperty({ type: String, required: false, pattern: '^\\d{44}$', description: 'Chave da NF-e do volume (44 dígitos).' })
  @IsOptional()
  @Matches(/^\d{44}$/, { message: 'chaveNFe deve ter 44 dígitos' })
  chaveNFe?: string;

  @TextoOpcional(100, { description: 'Identificador do volume no sistema da loja.' }) identificador?: string;
  @TextoOpcional(50, { description: 'Código do envio no sistema da loja; rótulo do volume nas telas.' }) codigoEnvio?: string;
  @TextoOpcional(255, { example: 'Caixa 1 de 2', description: 'Rótulo do volume na página pública.' }) rotulo?: string;

  @DataHora({ description: 'Data e hora da movimentação.' }) dataHora: string;
  @Texto(500, { example: 'Objeto postado' }) descricao: string;

  @ApiProperty({ type: String, maxLength: 10, required: false, example: 'PO', description: 'Código do evento no sistema da loja.' })
  @IsOptional()
  @IsString({ message: 'sigla deve ser um texto' })
  @MaxLength(10, { message: 'sigla deve ter no máximo 10 caracteres' })
  sigla?: string;

  @ApiProperty({ required: false, default: true, description: 'false: evento interno, que só a loja vê.' })
  @IsOptional()
  @IsBoolean({ message: 'visivelClienteFinal deve ser true ou false' })
  visivelClienteFinal?: boolean;

  @ApiProperty({ required: false, default: false, description: 'true: o volume fica encerrado e recusa novos eventos (409).' })
  @IsOptional()
  @IsBoolean({ message: 'encerraVolume deve ser true ou false' })
  encerraVolume?: boolean;
}
