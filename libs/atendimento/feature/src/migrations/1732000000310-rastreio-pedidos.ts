import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The agents' view of the stores' tracking, built from tracking.events.v1 (never from the
 * tracking service's tables). Internal events are kept, because a correction can make one
 * visible, but only visible ones are ever read for an answer.
 */
export class RastreioPedidos1732000000310 implements MigrationInterface {
  name = 'RastreioPedidos1732000000310';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE rastreio_pedidos (
        id_pedido     text    PRIMARY KEY,
        id_loja       integer NOT NULL,
        numero_pedido text    NOT NULL,
        tipo_pedido   text    NOT NULL,
        pedido_canal  text,
        link_rastreio text    NOT NULL
      )`);
    // Lookups ignore case: a customer types "br123…" for "BR123…".
    await runner.query(`CREATE INDEX rastreio_pedidos_numero ON rastreio_pedidos (id_loja, upper(numero_pedido))`);
    await runner.query(`CREATE INDEX rastreio_pedidos_canal ON rastreio_pedidos (id_loja, upper(pedido_canal))`);
    await runner.query(`
      CREATE TABLE rastreio_volumes (
        id_pedido       text      NOT NULL,
        chave_envio     text      NOT NULL,
        id_loja         integer   NOT NULL,
        codigo_rastreio text,
        codigo_envio    text,
        rotulo          text,
        encerrado       boolean   NOT NULL DEFAULT false,
        ordem           bigserial NOT NULL,
        PRIMARY KEY (id_pedido, chave_envio)
      )`);
    await runner.query(`CREATE INDEX rastreio_volumes_codigo ON rastreio_volumes (id_loja, upper(codigo_rastreio))`);
    await runner.query(`
      CREATE TABLE rastreio_eventos (
        id_loja     integer   NOT NULL,
        hash        text      NOT NULL,
        id_pedido   text      NOT NULL,
        chave_envio text      NOT NULL,
        data_hora   text      NOT NULL,
        descricao   text      NOT NULL,
        visivel     boolean   NOT NULL,
        ordem       bigserial NOT NULL,
        PRIMARY KEY (id_loja, hash)
      )`);
    await runner.query(`CREATE INDEX rastreio_eventos_volume ON rastreio_eventos (id_pedido, chave_envio)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE rastreio_eventos`);
    await runner.query(`DROP TABLE rastreio_volumes`);
    await runner.query(`DROP TABLE rastreio_pedidos`);
  }
}
