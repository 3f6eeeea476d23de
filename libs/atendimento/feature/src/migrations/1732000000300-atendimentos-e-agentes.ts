import { MigrationInterface, QueryRunner } from 'typeorm';

/** Read models of the service's own events: conversations with their messages, and agents. */
export class AtendimentosEAgentes1732000000300 implements MigrationInterface {
  name = 'AtendimentosEAgentes1732000000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE atendimentos (
        id_atendimento    text        PRIMARY KEY,
        id_loja           integer     NOT NULL,
        canal             text        NOT NULL,
        tipo              text        NOT NULL,
        status            text        NOT NULL,
        dados_cliente     jsonb       NOT NULL,
        id_pedido         text,
        data_abertura     timestamptz NOT NULL,
        data_encerramento timestamptz,
        resumo            text
      )`);
    // Listing: newest first, ties by id, optionally by status.
    await runner.query(`CREATE INDEX atendimentos_por_loja ON atendimentos (id_loja, data_abertura DESC, id_atendimento)`);
    await runner.query(`CREATE INDEX atendimentos_por_loja_e_status ON atendimentos (id_loja, status, data_abertura DESC, id_atendimento)`);
    // A message is one insert, nothing else: counts are read from here (UNIQUE below indexes them).
    await runner.query(`
      CREATE TABLE atendimento_mensagens (
        id_mensagem    text        PRIMARY KEY,
        id_atendimento text        NOT NULL,
        posicao        integer     NOT NULL,
        direcao        text        NOT NULL,
        remetente      text        NOT NULL,
        mensagem       text        NOT NULL,
        data_hora      timestamptz NOT NULL,
        UNIQUE (id_atendimento, posicao)
      )`);
    await runner.query(`
      CREATE TABLE agentes (
        id_agente   text        PRIMARY KEY,
        id_loja     integer     NOT NULL,
        nome        text        NOT NULL,
        descricao   text        NOT NULL,
        habilidades text[]      NOT NULL,
        faq         jsonb       NOT NULL,
        ativo       boolean     NOT NULL,
        versao      integer     NOT NULL,
        criado_em   timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX agentes_por_loja ON agentes (id_loja, criado_em, id_agente)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE agentes`);
    await runner.query(`DROP TABLE atendimento_mensagens`);
    await runner.query(`DROP TABLE atendimentos`);
  }
}
