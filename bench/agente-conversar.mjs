// Benchmark: POST /v1/agentes/{idAgente}/conversar against an FAQ agent of 1,000 entries.
//
//   Target: p99 ≤ 50 ms with 1,000 FAQ entries in the agent, on a 2-core machine with
//   the whole stack running (docs/BENCHMARKS.md).
//
//   node bench/agente-conversar.mjs [--rate=100 --duration=30 --warmup=5 --ceiling=true --keep]
//
// It starts its own durable stack on its own ports (shifted by TRILHA_PORT_OFFSET), creates a
// store and an agent with 1,000 generated questions, then sends a fixed rate of messages — a mix
// of paraphrases of its questions and questions it cannot answer — and measures each call over
// HTTPS through the gateway. Unless --ceiling=false, the ceiling is measured first
// (lib/pipeline/ceiling.mjs, role 1 alone: an HTTPS POST that commits an event row and its outbox
// row, on infrastructure of its own) at the same rate, and the report gives the latency's ratio to
// its answers'. Progress goes to stderr; the report to stdout.
import { BASE_PORTS, fmt, parseArgs, say } from './lib/bench-kit.mjs';
import { benchStack } from './lib/bench-stack.mjs';
import { countsLine, latencyLine, latencyRatios, percentile } from './lib/latency.mjs';
import { openLoop } from './lib/load-loops.mjs';
import { cpuMeter, describeMachine } from './lib/machine.mjs';
import { ceilingReport, measureCeiling } from './lib/pipeline/ceiling.mjs';

const args = parseArgs({ rate: 100, duration: 30, warmup: 5, ceiling: true, keep: false });
const TARGET = { p99: 50 };

const PRODUTOS = ['tênis de corrida', 'camiseta dry fit', 'mochila escolar', 'garrafa térmica', 'fone bluetooth', 'relógio esportivo', 'jaqueta corta-vento',
  'bermuda de ciclismo', 'luva de goleiro', 'bola de futebol', 'raquete de tênis', 'bicicleta aro 29', 'capacete de ciclismo', 'óculos de natação', 'sunga',
  'maiô', 'tapete de yoga', 'halter de 5 kg', 'corda de pular', 'caneleira', 'meião', 'chuteira society', 'boné', 'viseira', 'mochila de hidratação',
  'barraca de camping', 'saco de dormir', 'lanterna de cabeça', 'canivete', 'bota de trilha', 'meia de compressão', 'top esportivo', 'legging', 'agasalho',
  'kimono de judô', 'faixa de jiu-jítsu', 'protetor bucal', 'bandagem elástica', 'patins', 'skate', 'prancha de surf', 'roupa de neoprene', 'nadadeira',
  'snorkel', 'bolsa térmica', 'squeeze', 'cronômetro', 'monitor cardíaco', 'esteira dobrável', 'bicicleta ergométrica'];
const ASSUNTOS = [
  ['Qual o prazo de entrega do {p}?', 'O {p} chega em até 5 dias úteis.', 'em quanto tempo chega o {p}'],
  ['Como faço para trocar o {p}?', 'A troca do {p} é feita em Meus Pedidos, em até 30 dias.', 'quero trocar meu {p}'],
  ['O {p} tem garantia?', 'O {p} tem 90 dias de garantia do fabricante.', 'garantia do {p}'],
  ['Quais tamanhos do {p} vocês têm?', 'O {p} vem do P ao GG.', 'tamanhos disponiveis {p}'],
  ['Qual o material do {p}?', 'O {p} é feito de material sintético resistente.', 'de que material e feito o {p}'],
  ['O {p} pode ser lavado na máquina?', 'Lave o {p} à mão, com água fria.', 'posso lavar o {p} na maquina'],
  ['Quando o {p} volta ao estoque?', 'O {p} volta ao estoque em até 15 dias.', 'o {p} volta pro estoque quando'],
  ['Posso parcelar o {p}?', 'O {p} pode ser parcelado em até 10x sem juros.', 'da pra parcelar o {p} no cartao'],
  ['O {p} tem cores diferentes?', 'O {p} vem em preto, azul e vermelho.', 'quais cores do {p}'],
  ['Como devolver o {p} com defeito?', 'Para devolver o {p}, abra uma solicitação em Meus Pedidos.', 'meu {p} veio com defeito, como devolvo'],
  ['O {p} serve para iniciantes?', 'Sim, o {p} é indicado para iniciantes.', 'o {p} e bom pra iniciante'],
  ['Qual o peso do {p}?', 'O {p} pesa cerca de 800 g.', 'quanto pesa o {p}'],
  ['O {p} vem com nota fiscal?', 'Sim, o {p} segue com nota fiscal eletrônica.', 'tem nota fiscal o {p}'],
  ['Vocês entregam o {p} no Nordeste?', 'Entregamos o {p} em todo o Nordeste.', 'entrega do {p} no nordeste'],
  ['O {p} tem desconto à vista?', 'No Pix, o {p} tem 5% de desconto.', 'desconto no pix para o {p}'],
  ['Como cuidar do {p}?', 'Guarde o {p} em local seco e arejado.', 'cuidados com o {p}'],
  ['O {p} é original?', 'Todo {p} vendido aqui é original, com nota.', 'o {p} e original mesmo'],
  ['Posso retirar o {p} na loja?', 'Pode retirar o {p} na loja em 2 horas.', 'retirar {p} na loja fisica'],
  ['O {p} tem manual em português?', 'O {p} acompanha manual em português.', 'manual do {p} em portugues'],
  ['Qual a voltagem do {p}?', 'O {p} é bivolt.', 'voltagem do {p}'],
];
const DESCONHECIDAS = ['Vocês abrem no feriado de carnaval?', 'Qual é a capital da Mongólia?', 'Meu cachorro comeu o controle remoto', 'Quem ganhou o jogo ontem?', 'Vocês contratam vendedores?'];

const faq = PRODUTOS.flatMap((produto) => ASSUNTOS.map(([pergunta, resposta]) => ({ pergunta: pergunta.replaceAll('{p}', produto), resposta: resposta.replaceAll('{p}', produto) })));
const mensagens = [
  ...PRODUTOS.flatMap((produto) => ASSUNTOS.map(([, , parafrase]) => parafrase.replaceAll('{p}', produto))),
  ...DESCONHECIDAS,
];

if (args.ceiling) say('measuring the ceiling first, on infrastructure of its own');
const ceiling = args.ceiling
  ? await measureCeiling({ roles: ['https'], phases: ['rate'], rate: args.rate, duration: args.duration, warmup: args.warmup, keep: args.keep })
  : undefined;

const bench = await benchStack('agente', BASE_PORTS.agente, { keep: args.keep, rateLimitPerMinute: 100_000_000 });

await bench.run(async () => {
  const { api, facts, stack } = bench;
  const [loja] = await bench.createStores(1);
  const criado = await api('POST', '/agentes', { token: loja.token, body: { nome: 'FAQ grande', descricao: `${faq.length} perguntas`, faq } });
  if (criado.status !== 201) throw new Error(`POST /agentes: ${criado.status} ${JSON.stringify(criado.body).slice(0, 500)}`);
  const { idAgente } = criado.body;
  say(`agent ${idAgente} with ${faq.length} FAQ entries`);

  const firstCall = performance.now();
  const primeira = await api('POST', `/agentes/${idAgente}/conversar`, { token: loja.token, body: { mensagem: mensagens[0] } });
  const firstMs = performance.now() - firstCall;

  const intencoes = new Map();
  const meter = cpuMeter(stack);
  say(`load: ${args.rate} messages/s for ${args.warmup + args.duration} s (${args.warmup} s warm-up, excluded)`);
  const loop = await openLoop({
    rate: args.rate,
    seconds: args.duration,
    warmupSeconds: args.warmup,
    send: async (i, measured) => {
      const response = await api('POST', `/agentes/${idAgente}/conversar`, { token: loja.token, body: { mensagem: mensagens[(i * 7919) % mensagens.length] } });
      const intencao = response.body?.intencao ?? 'n/a';
      if (measured) intencoes.set(intencao, (intencoes.get(intencao) ?? 0) + 1);
      return response.status;
    },
    onWarmedUp: meter.start,
    progress: ({ latencies, statuses }) => `${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}; p99 so far ${fmt(percentile([...latencies].sort((a, b) => a - b), 99))}`,
  });
  const cpu = meter.stop();
  const p99 = percentile(loop.latencies, 99);
  const responses = new Map([...loop.statuses, ...loop.errors]);
  const ratio = ceiling && `at ${args.rate}/s: ${latencyRatios(loop.latencies, ceiling.figures.rate.latencies)}`;
  const pass = p99 <= TARGET.p99 && loop.statuses.get(200) === loop.requests;

  process.stdout.write([
    '',
    `POST /v1/agentes/{idAgente}/conversar: an FAQ agent with ${faq.length} entries`,
    `  date            ${facts.date}`,
    `  machine         ${describeMachine(facts)}; load average before start ${facts.loadAverage}`,
    `  stack           durable (PostgreSQL fsync on), log level warn; HTTPS through the gateway`,
    `  first call      ${fmt(firstMs)} (status ${primeira.status}; the index was built when the agent was created)`,
    `  offered load    ${args.rate} requests/s for ${args.duration} s after ${args.warmup} s warm-up (open loop; warm-up excluded), ${loop.maxInFlight} max in flight`,
    `  achieved rate   ${loop.rate.toFixed(1)} requests/s in the measured window`,
    `  responses       ${countsLine(responses)}; intents ${countsLine(intencoes)}`,
    `  latency         ${latencyLine(loop.latencies)}`,
    `  target          p99 ≤ ${TARGET.p99} ms: ${pass ? 'PASS' : 'FAIL'} (p99 ${fmt(p99)})${ratio ? `; against the ceiling ${ratio}` : ''}`,
    `  CPU (measured)  ${cpu.text}`,
    ...(ceiling ? ceilingReport(ceiling, [['role 1', ratio]]) : []),
    '',
  ].join('\n'));
  return pass;
});
