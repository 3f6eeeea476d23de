import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { AtendimentoCommandsService } from '../atendimento-commands.service';
import { AtendimentoCriadoResponse } from '../atendimento.response';
import { novoId } from '../novo-id';
import { AbrirAtendimentoRequest } from './abrir-atendimento.request';

@ApiTags('Atendimentos')
@Controller('atendimentos')
export class AbrirAtendimentoHttpController {
  constructor(private readonly commands: AtendimentoCommandsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'abrirAtendimento',
    summary: 'Abre um atendimento (status aberto): emite atendimento.criado e, com `mensagem`, atendimento.mensagem (entrada).',
  })
  @ApiCreatedResponse({ type: AtendimentoCriadoResponse })
  async abrir(@IdLoja() idLoja: number, @Body() body: AbrirAtendimentoRequest): Promise<AtendimentoCriadoResponse> {
    const idAtendimento = novoId();
    const { nome, telefone = null, email = null } = body.dadosCliente;
    const [criado] = await this.commands.executar(idAtendimento, idLoja, {
      acao: 'abrir',
      idAtendimento,
      idLoja,
      canal: body.canal,
      tipo: body.tipo,
      dadosCliente: { nome, telefone, email },
      idPedido: body.idPedido ?? null,
      mensagemInicial: body.mensagem == null ? null : { idMensagem: novoId(), mensagem: body.mensagem },
      agora: new Date().toISOString(),
    });
    if (criado.type !== 'atendimento.criado') throw new Error(`unexpected ${criado.type}`);
    const { idPedido: _interno, ...dados } = criado.data;
    return dados;
  }
}
