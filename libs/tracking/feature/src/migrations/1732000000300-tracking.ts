import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tracking service's read models, kept by PedidosProjection and RastreiosProjection from
 * the order streams (and rebuilt from them by `main.js rebuild-projections`).
 */
export class Tracking1732000000300 implements MigrationInterface {
  name = 'Tracking1732000000300';

  async up(runner: QueryRunner): Promise<void> {
    // Orders, for GET /pedido and /pedidos. The unique key is also the upsert guard: two first
    // writes of one numeroPedido + tipoPedido racing each other cannot both commit an order.
    await runner.query(`
      CREATE TABLE pedidos (
        id_pedido      text        PRIMARY KEY,
        id_loja        integer     NOT NULL,
        numero_pedido  text        NOT NULL,
        tipo_pedido    text        NOT NULL,
        pedido_canal   text,
        situacao       text        NOT NULL,
        data_pedido    timestamptz NOT NULL,
        token_rastreio text        NOT NULL,
        documento      text        NOT NULL,
        CONSTRAINT pedidos_chave_unica UNIQUE (id_loja, numero_pedido, tipo_pedido),
        CONSTRAINT pedidos_token_unico UNIQUE (token_rastreio)
      )`);
    await runner.query(`CREATE INDEX pedidos_por_canal ON pedidos (id_loja, pedido_canal) WHERE pedido_canal IS NOT NULL`);
    await runner.query(`CREATE INDEX pedidos_por_data ON pedidos (id_loja, data_pedido DESC, id_pedido)`);

    // One tracking record per order with at least one volume: `documento` is the JSON that
    // GET /pedidoRastreio answers as it is; `estado` what it and the public page are made from.
    await runner.query(`
      CREATE TABLE rastreios (
        id_pedido     text    PRIMARY KEY,
        id_loja       integer NOT NULL,
        numero_pedido text    NOT NULL,
        tipo_pedido   text    NOT NULL,
        pedido_canal  text,
        estado        jsonb   NOT NULL,
        documento     text    NOT NULL
      )`);
    await runner.query(`CREATE INDEX rastreios_por_numero ON rastreios (id_loja, numero_pedido)`);
    await runner.query(`CREATE INDEX rastreios_por_canal ON rastreios (id_loja, pedido_canal) WHERE pedido_canal IS NOT NULL`);
    await runner.query(`
      CREATE TABLE rastreio_codigos (
        id_loja         integer NOT NULL,
        codigo_rastreio text    NOT NULL,
        id_pedido       text    NOT NULL,
        PRIMARY KEY (id_loja, codigo_rastreio, id_pedido)
      )`);
    await runner.query(`
      CREATE TABLE rastreio_hashes (
        hash      text    PRIMARY KEY,
        id_loja   integer NOT NULL,
        id_pedido text    NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE rastreio_hashes`);
    await runner.query(`DROP TABLE rastreio_codigos`);
    await runner.query(`DROP TABLE rastreios`);
    await runner.query(`DROP TABLE pedidos`);
  }
}
