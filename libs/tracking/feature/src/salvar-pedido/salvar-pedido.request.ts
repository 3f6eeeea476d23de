import { DataHora } from '@trilha/http';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsInt, IsNumber, IsObject, IsOptional, Matches, Max, Min, ValidateNested } from 'class-validator';
import { SITUACAO_PADRAO, SITUACOES, TIPO_PEDIDO_PADRAO, TIPOS_PEDIDO, type Situacao, type TipoPedido } from '@trilha/tracking-domain';
import { Texto, TextoOpcional } from '../validation';

/** What a request with an unknown tipoPedido is told. */
export const MENSAGEM_TIPO_PEDIDO = `tipoPedido deve ser ${TIPOS_PEDIDO.join(' ou ')}`;
const DINHEIRO = { maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false };
/** What the document says of an amount: cents at most. */
const EM_CENTAVOS = { multipleOf: 0.01 };
const MAX_DINHEIRO = 999_999_999.99;

export class ClientePedido {
  @Texto(150, { example: 'Ana Souza' }) nome: string;

  @TextoOpcional(150, { example: 'ana@example.com' })
  @IsEmail({}, { message: 'email deve ser um endereço de e-mail' })
  email?: string;

  @TextoOpcional(30, { example: '+55 11 91234-5678' }) telefone?: string;
  @TextoOpcional(20, { example: '12345678909' }) documento?: string;
}

export class EnderecoPedido {
  @Texto(255) logradouro: string;
  @Texto(20) numero: string;
  @TextoOpcional(100) complemento?: string;
  @Texto(100) bairro: string;
  @Texto(100) cidade: string;

  @ApiProperty({ example: 'SP', pattern: '^[A-Z]{2}$' })
  @Matches(/^[A-Z]{2}$/, { message: 'uf deve ter 2 letras maiúsculas' })
  uf: string;

  @ApiProperty({ example: '01310100', pattern: '^\\d{8}$' })
  @Matches(/^\d{8}$/, { message: 'cep deve ter 8 dígitos' })
  cep: string;
}

export class ItemPedido {
  @Texto(60, { example: 'CAM-AZ-M' }) sku: string;
  @Texto(255, { example: 'Camiseta azul M' }) descricao: string;

  @ApiProperty({ minimum: 1, example: 2 })
  @IsInt({ message: 'quantidade deve ser um número inteiro' })
  @Min(1, { message: 'quantidade deve ser maior que zero' })
  @Max(1_000_000)
  quantidade: number;

  @ApiProperty({ minimum: 0, example: 49.9, description: 'Até 2 casas decimais.', ...EM_CENTAVOS })
  @IsNumber(DINHEIRO, { message: 'valorUnitario deve ser um número com até 2 casas decimais' })
  @Min(0, { message: 'valorUnitario não pode ser negativo' })
  @Max(MAX_DINHEIRO)
  valorUnitario: number;
}

/** How a store names an order: its number and type (the key), and the sales channel's own id. */
export class IdentificacaoDoPedido {
  @Texto(100, { example: '1001' }) numeroPedido: string;

  @ApiProperty({ enum: TIPOS_PEDIDO, default: TIPO_PEDIDO_PADRAO, required: false })
  @IsOptional()
  @IsIn(TIPOS_PEDIDO, { message: MENSAGEM_TIPO_PEDIDO })
  tipoPedido?: TipoPedido;

  @TextoOpcional(100, { example: 'MLB-2000123' }) pedidoCanal?: string;
}

/** PUT /pedido: the whole order as the store has it (a full replacement of what it said before). */
export class SalvarPedidoRequest extends IdentificacaoDoPedido {
  @TextoOpcional(50, { example: 'mercadolivre' }) canalVenda?: string;

  @ApiProperty({ enum: SITUACOES, default: SITUACAO_PADRAO, required: false })
  @IsOptional()
  @IsIn(SITUACOES, { message: `situacao deve ser uma de: ${SITUACOES.join(', ')}` })
  situacao?: Situacao;

  @ApiProperty({ type: ClientePedido })
  @IsObject({ message: 'cliente deve ser um objeto' })
  @ValidateNested()
  @Type(() => ClientePedido)
  cliente: ClientePedido;

  @ApiProperty({ type: EnderecoPedido, required: false })
  @IsOptional()
  @IsObject({ message: 'enderecoEntrega deve ser um objeto' })
  @ValidateNested()
  @Type(() => EnderecoPedido)
  enderecoEntrega?: EnderecoPedido;

  @ApiProperty({ type: [ItemPedido] })
  @IsArray({ message: 'itens deve ser uma lista' })
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => ItemPedido)
  itens: ItemPedido[];

  @ApiProperty({ minimum: 0, example: 99.8, description: 'Até 2 casas decimais.', ...EM_CENTAVOS })
  @IsNumber(DINHEIRO, { message: 'valorTotal deve ser um número com até 2 casas decimais' })
  @Min(0, { message: 'valorTotal não pode ser negativo' })
  @Max(MAX_DINHEIRO)
  valorTotal: number;

  @DataHora({ description: 'Quando o pedido foi feito.' }) dataPedido: string;
}
