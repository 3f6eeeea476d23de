import { NotFoundException } from '@nestjs/common';
import { bancoDeEntregas } from '../testing/banco-de-entregas.fixture';
import { RemoverDaFilaHandler } from './remover-da-fila.handler';

describe('removals of queue items that reach the delivery service in one turn', () => {
  const banco = bancoDeEntregas();

  /** Queues `quantos` pending items for the store; resolves with their codes. */
  const enfileirar = async (idLoja: number, quantos: number): Promise<string[]> => {
    const linhas: { id_documento: string }[] = await banco.dataSource.query(
      `INSERT INTO fila (id_loja, id_evento, evento, data, entrega_falhou)
       SELECT $1, gen_random_uuid(), 'atendimento.mensagem', '{}', false FROM generate_series(1, $2)
       RETURNING id_documento::text`,
      [idLoja, quantos],
    );
    return linhas.map(({ id_documento }) => id_documento);
  };

  it('go in one statement, each item removed once, for its first request only, never another store’s', async () => {
    const [loja, outra] = [banco.novaLoja(), banco.novaLoja()];
    const itens = await enfileirar(loja, 3);
    const [daOutra] = await enfileirar(outra, 1);
    const handler = new RemoverDaFilaHandler(banco.dataSource);

    // Every call submits before the turn ends: one statement for all of them.
    const pedidos: [number, string][] = [
      [loja, itens[0]], [loja, itens[0]], [loja, itens[0].toUpperCase()], [loja, itens[1]], [loja, daOutra], [loja, itens[2]],
    ];
    const resultados = await Promise.allSettled(pedidos.map(([idLoja, codigo]) => handler.execute(idLoja, codigo)));

    expect(resultados.map((resultado) => resultado.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    for (const resultado of resultados.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) expect(resultado.reason).toBeInstanceOf(NotFoundException);
    const pendentes: { id_loja: number }[] = await banco.dataSource.query(`SELECT id_loja FROM fila WHERE removido_em IS NULL AND id_loja = ANY($1::int[])`, [[loja, outra]]);
    expect(pendentes).toEqual([{ id_loja: outra }]);
  });
});
