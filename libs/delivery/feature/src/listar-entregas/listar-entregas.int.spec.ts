import type { DataSource, EntityManager } from 'typeorm';
import type { ResultadoEnvio } from '../shared';
import { bancoDeEntregas } from '../testing/banco-de-entregas.fixture';
import { consultaDaPagina, ListarEntregasHandler } from './listar-entregas.handler';
import type { ListarEntregasRequest } from './listar-entregas.request';

/** A node of EXPLAIN (FORMAT JSON)'s plan. */
interface NoDoPlano {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Actual Rows': number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: NoDoPlano[];
}

const nos = (no: NoDoPlano): NoDoPlano[] => [no, ...(no.Plans ?? []).flatMap(nos)];

describe('the deliveries log of a store with 100,000 deliveries', () => {
  const banco = bancoDeEntregas();
  const POR_PAGINA = 20;
  let idLoja: number;
  let meio: number;

  beforeAll(async () => {
    idLoja = banco.novaLoja();
    const outra = banco.novaLoja();
    // 100,000 deliveries of the store, with another store's 50,000 between them, as a shared table holds them.
    await banco.dataSource.query(
      `INSERT INTO entregas (id_loja, id_evento, evento, data, ocorrido_em, status)
       SELECT CASE WHEN i % 3 = 0 THEN $2::int ELSE $1::int END, gen_random_uuid(),
              CASE WHEN i % 2 = 0 THEN 'atendimento.mensagem' ELSE 'atendimento.criado' END, '{}',
              now() - make_interval(secs => 150000 - i), CASE WHEN i % 5 = 0 THEN 'falhou' ELSE 'entregue' END
       FROM generate_series(1, 150000) AS i`,
      [idLoja, outra],
    );
    await banco.dataSource.query(`VACUUM ANALYZE entregas`);
    [{ meio }] = await banco.dataSource.query(`SELECT posicao::int AS meio FROM entregas WHERE id_loja = $1 ORDER BY posicao OFFSET 50000 LIMIT 1`, [idLoja]);
  }, 120_000);

  /** The plan of a page's statement as the service runs it (its connections plan generically). */
  const plano = async (...args: Parameters<typeof consultaDaPagina>) => {
    const { sql, params } = consultaDaPagina(...args);
    const [{ 'QUERY PLAN': [{ Plan }] }] = await banco.dataSource.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
    return nos(Plan as NoDoPlano);
  };

  /** The page's own read: the backward scan of the store's range of entregas_da_loja. */
  const leituraDaPagina = (plan: NoDoPlano[]) => plan.filter((no) => no['Index Name'] === 'entregas_da_loja' && no['Scan Direction'] === 'Backward');

  it('reads a page after a cursor deep in the log as one short backward range of (id_loja, posicao), filters or not', async () => {
    for (const filtros of [{}, { evento: 'atendimento.mensagem' as const }, { evento: 'atendimento.criado' as const, status: 'falhou' as const }]) {
      const [pagina, ...outras] = leituraDaPagina(await plano(idLoja, filtros, POR_PAGINA, { antesDe: meio }));
      expect(outras).toEqual([]);
      expect(pagina['Node Type']).toBe('Index Scan');
      expect(pagina['Actual Rows']).toBe(POR_PAGINA + 1);
      // The rows it reads (one in ten kept by the strictest filter) and their index pages: a few hundred blocks at most, not the 100,000 rows before it.
      expect(pagina['Shared Hit Blocks'] + pagina['Shared Read Blocks']).toBeLessThan(400);
    }
  });

  it('gives the rows the filters keep, newest first, after the cursor', async () => {
    const { sql, params } = consultaDaPagina(idLoja, { evento: 'atendimento.mensagem', status: 'entregue' }, 3, { antesDe: meio });
    const [{ total, entregas }] = await banco.dataSource.query(sql, params);
    const esperadas = await banco.dataSource.query(
      `SELECT id_entrega FROM entregas WHERE id_loja = $1 AND evento = 'atendimento.mensagem' AND status = 'entregue' AND posicao < $2 ORDER BY posicao DESC LIMIT 4`,
      [idLoja, meio],
    );
    expect(entregas.map((entrega: { id_entrega: string }) => entrega.id_entrega)).toEqual(esperadas.map((row: { id_entrega: string }) => row.id_entrega));
    const [{ count }] = await banco.dataSource.query(`SELECT count(*)::int FROM entregas WHERE id_loja = $1 AND evento = 'atendimento.mensagem' AND status = 'entregue'`, [idLoja]);
    expect(total).toBe(count);
  });
});

describe('the record of an attempt', () => {
  const banco = bancoDeEntregas();

  it('keeps the URL, the headers as sent and the answer’s excerpt, whatever characters they hold', async () => {
    const idLoja = await banco.lojaComWebhook();
    await banco.registrar(idLoja);
    const [entrega] = (await banco.entregas.claim(100, 100, new Map())).claimed.filter((claimed) => claimed.idLoja === idLoja);
    const cabecalhos = { host: 'loja.example', 'webhook-signature': 'v1,a+b/c= v1,"d"\\e', 'x-aspas': `'; DROP TABLE tentativas; --` };
    const resposta = `{"erro": "ação \\"inválida\\""}\n🚚 {} , ' "`;
    const resultado: ResultadoEnvio = { ok: false, dataHora: new Date(), url: 'https://loja.example/hook?a=1&b="2"', cabecalhos, statusHttp: 500, duracaoMs: 12, erro: 'status 500, esperado 200', resposta, traceparent: null };
    await banco.entregas.concluir([{ entrega, resultado }]);
    expect(await banco.dataSource.query(`SELECT url, cabecalhos, resposta FROM tentativas WHERE id_entrega = $1`, [entrega.idEntrega])).toEqual([{ url: resultado.url, cabecalhos, resposta }]);
  });
});

describe('a page of the log', () => {
  const banco = bancoDeEntregas();

  /** `dataSource`, with `entre` committed after the first statement made through it and before the second. */
  function comCommitEntreLeituras(dataSource: DataSource, entre: () => Promise<void>): DataSource {
    let statements = 0;
    const comGancho = <T extends Pick<EntityManager, 'query'>>(alvo: T): T =>
      new Proxy(alvo, {
        get: (target, property) =>
          property === 'query'
            ? async (sql: string, parameters?: unknown[]) => {
                if ((statements += 1) === 2) await entre();
                return target.query(sql, parameters);
              }
            : Reflect.get(target, property),
      });
    return new Proxy(comGancho(dataSource), {
      get: (target, property) =>
        property === 'transaction'
          ? (nivel: 'REPEATABLE READ', trabalho: (manager: EntityManager) => Promise<unknown>) => dataSource.transaction(nivel, (manager) => trabalho(comGancho(manager)))
          : Reflect.get(target, property),
    });
  }

  it('shows each delivery beside the attempts of the same moment, whatever is recorded between its reads', async () => {
    const idLoja = await banco.lojaComWebhook();
    await banco.registrar(idLoja);
    const [entrega] = (await banco.entregas.claim(100, 100, new Map())).claimed.filter((claimed) => claimed.idLoja === idLoja);
    const resultado: ResultadoEnvio = { ok: false, dataHora: new Date(), url: 'https://loja.example/hook', cabecalhos: {}, statusHttp: 503, duracaoMs: 5, erro: 'status 503, esperado 200', resposta: '', traceparent: null };
    // The attempt in flight when the page is read, recorded (with its next one due) before its attempts are.
    const handler = new ListarEntregasHandler(comCommitEntreLeituras(banco.dataSource, () => banco.entregas.concluir([{ entrega, resultado }]).then(() => undefined)));
    const { entregas } = await handler.execute(idLoja, { pagina: 1, porPagina: 20 } as ListarEntregasRequest, false);
    expect(entregas).toEqual([expect.objectContaining({ idEntrega: entrega.idEntrega, status: 'pendente', proximaTentativa: null, tentativas: [] })]);
    // Read again, the attempt and its next one show together.
    const [depois] = (await new ListarEntregasHandler(banco.dataSource).execute(idLoja, { pagina: 1, porPagina: 20 } as ListarEntregasRequest, false)).entregas;
    expect(depois).toMatchObject({ status: 'pendente', proximaTentativa: expect.stringMatching(/Z$/), tentativas: [{ numero: 1, statusHttp: 503 }] });
  });
});
