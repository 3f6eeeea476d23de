import { Injectable } from '@nestjs/common';
import { assistenteDeRastreio } from '@trilha/atendimento-domain';
import { AgenteCommands } from '../shared';

/**
 * Gives a new store its built-in "Assistente de rastreio". The agent's stream id comes from the
 * store, and creating an existing agent changes nothing, so a redelivery or a replay creates no
 * second one.
 */
@Injectable()
export class AssistenteDeRastreioHandler {
  constructor(private readonly commands: AgenteCommands) {}

  execute(idLoja: number, criadaEm: string): Promise<void> {
    return this.commands.criar(assistenteDeRastreio(idLoja, criadaEm));
  }
}
