import { Body, Controller, HttpCode, NotFoundException, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { AtendimentoCommandsService } from '../atendimento-commands.service';
import { MensagemAtendimentoResponse } from '../atendimento.response';
import { ID_MAX, novoId } from '../novo-id';
import { RegistrarMensagemRequest } from './registrar-mensagem.request';

@ApiTags('Atendimentos')
@Controller('atendimentos/:idAtendimento/mensagens')
export class RegistrarMensagemHttpController {
  constructor(private readonly commands: AtendimentoCommandsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'registrarMensagemAtendimento', summary: 'Registra uma mensagem num atendimento aberto: emite atendimento.mensagem; 409 se encerrado.' })
  @ApiCreatedResponse({ type: MensagemAtendimentoResponse })
  @ApiConflictResponse({ description: 'O atendimento está encerrado.' })
  async registrar(@IdLoja() idLoja: number, @Param('idAtendimento') idAtendimento: string, @Body() body: RegistrarMensagemRequest): Promise<MensagemAtendimentoResponse> {
    if (idAtendimento.length > ID_MAX) throw new NotFoundException('Atendimento não encontrado.');
    const idMensagem = novoId();
    const agora = new Date().toISOString();
    const { direcao, remetente, mensagem } = body;
    await this.commands.executar(idAtendimento, idLoja, { acao: 'registrarMensagens', idLoja, agora, mensagens: [{ idMensagem, direcao, remetente, mensagem }] });
    return { idMensagem, direcao, remetente, mensagem, dataHora: agora };
  }
}
