import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import type { TopicContract, TopicMessage } from '../validate-message';

/**
 * Events of `atendimento.events.v1`, published by the atendimento service. Their `data` is
 * exactly the notification payload of docs/API.md section 7: the delivery service sends it to the
 * store's webhook as `{evento: type, data}`. Timestamps are UTC ending in Z.
 */
export const ATENDIMENTO_EVENT_TYPES = {
  criado: 'atendimento.criado',
  mensagem: 'atendimento.mensagem',
  encerrado: 'atendimento.encerrado',
} as const;

export const CANAIS = ['whatsapp', 'chat', 'email', 'telefone', 'marketplace'] as const;
export const TIPOS_ATENDIMENTO = ['duvida', 'reclamacao', 'troca', 'devolucao', 'rastreio', 'outro'] as const;
export const DIRECOES = ['entrada', 'saida'] as const;

/** The longest message of a conversation, in characters (code points), as HTTP and this event take it. */
export const MENSAGEM_MAX = 4000;

/** Timestamps in these payloads are UTC and end in Z (docs/API.md section 5). */
const UTC = /Z$/;

export class DadosCliente {
  @IsString() @MaxLength(150) nome: string;
  @IsOptional() @IsString() @MaxLength(30) telefone?: string | null;
  @IsOptional() @IsString() @MaxLength(150) email?: string | null;
}

export class AtendimentoCriadoData {
  @IsString() idAtendimento: string;
  @IsInt() @Min(1) idLoja: number;
  @IsIn(CANAIS) canal: (typeof CANAIS)[number];
  @IsIn(TIPOS_ATENDIMENTO) tipo: (typeof TIPOS_ATENDIMENTO)[number];
  @IsIn(['aberto']) status: 'aberto';
  @IsObject() @ValidateNested() @Type(() => DadosCliente) dadosCliente: DadosCliente;
  @IsISO8601({ strict: true }) @Matches(UTC) dataAbertura: string;
}

export class AtendimentoMensagemData {
  @IsString() idAtendimento: string;
  @IsInt() @Min(1) idLoja: number;
  @IsIn(CANAIS) canal: (typeof CANAIS)[number];
  @IsIn(DIRECOES) direcao: (typeof DIRECOES)[number];
  @IsString() @MaxLength(100) remetente: string;
  @IsString() @MaxLength(MENSAGEM_MAX) mensagem: string;
  @IsISO8601({ strict: true }) @Matches(UTC) dataHora: string;
}

export class AtendimentoEncerradoData {
  @IsString() idAtendimento: string;
  @IsInt() @Min(1) idLoja: number;
  @IsIn(CANAIS) canal: (typeof CANAIS)[number];
  @IsIn(['encerrado']) status: 'encerrado';
  @IsISO8601({ strict: true }) @Matches(UTC) dataEncerramento: string;
  @IsString() @MaxLength(2000) resumo: string;
}

export const ATENDIMENTO_CONTRACT = {
  [ATENDIMENTO_EVENT_TYPES.criado]: { data: AtendimentoCriadoData, schemaVersions: [1] },
  [ATENDIMENTO_EVENT_TYPES.mensagem]: { data: AtendimentoMensagemData, schemaVersions: [1] },
  [ATENDIMENTO_EVENT_TYPES.encerrado]: { data: AtendimentoEncerradoData, schemaVersions: [1] },
} satisfies TopicContract;

export type AtendimentoMessage = TopicMessage<typeof ATENDIMENTO_CONTRACT>;
