import { hash } from 'node:crypto';
import type { VistaDoCliente } from '@trilha/tracking-domain';

/**
 * The public tracking page, rendered on the server as one small self-contained HTML document:
 * no script, no external resource, styles allowed by their hash only. Everything that comes
 * from a store is escaped. It is given only what the customer may see (vistaDoCliente), so an
 * internal event cannot reach it.
 */

const ESTILO = `
*{box-sizing:border-box}
body{margin:0;background:#f3f5f8;color:#1d2433;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem 1rem}
.marca{margin:0;color:#4a5a75;font-size:.8rem;font-weight:600;letter-spacing:.08em;text-transform:uppercase}
h1{margin:.25rem 0 .25rem;font-size:1.6rem;line-height:1.25;overflow-wrap:anywhere}
.resumo{margin:0 0 1.25rem;color:#4a5a75}
.volume{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(20,30,50,.12);padding:1rem 1.1rem;margin:0 0 1rem}
.cabeca{display:flex;align-items:flex-start;justify-content:space-between;gap:.75rem}
h2{margin:0;font-size:1.1rem;line-height:1.35;overflow-wrap:anywhere}
.status{flex:none;border-radius:999px;padding:.15rem .65rem;font-size:.8rem;font-weight:600;white-space:nowrap}
.ativo{background:#e3efff;color:#0b4fae}
.encerrado{background:#e2f6e9;color:#126b35}
.codigo{margin:.25rem 0 0;color:#4a5a75;font-size:.9rem;overflow-wrap:anywhere}
ol{list-style:none;margin:1rem 0 0;padding:0}
li{position:relative;padding:0 0 1rem 1.5rem;border-left:2px solid #d5dbe5;margin-left:.4rem}
li:last-child{border-left-color:transparent;padding-bottom:0}
li::before{content:"";position:absolute;left:-.45rem;top:.3rem;width:.8rem;height:.8rem;border-radius:50%;background:#b4bfd0;border:2px solid #fff}
li.recente::before{background:#0b63d6}
li.recente p{font-weight:600}
time{display:block;color:#4a5a75;font-size:.85rem}
li p{margin:.1rem 0 0;overflow-wrap:anywhere}
.vazio{margin:1rem 0 0;color:#4a5a75}
footer{max-width:40rem;margin:0 auto;padding:0 1rem 2rem;color:#7a869a;font-size:.8rem;text-align:center}
`;

const CSP = `default-src 'none'; style-src 'sha256-${hash('sha256', ESTILO, 'base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * Headers of every page: its policy (nothing but its own style; no page may frame it), and no
 * `Referer` when a link is followed, since the page's URL carries its token.
 */
export const CABECALHOS_DA_PAGINA = { 'Content-Security-Policy': CSP, 'Referrer-Policy': 'no-referrer' } as const;

const STATUS = { ativo: 'Em andamento', encerrado: 'Finalizado' } as const;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapar(texto: string): string {
  return texto.replace(/[&<>"']/g, (caractere) => ESCAPES[caractere]);
}

/** The moment as the store wrote it (its local time): `21/11/2026 às 08:00`. */
function dataHoraLocal(dataHora: string): string {
  const partes = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(dataHora);
  return partes ? `${partes[3]}/${partes[2]}/${partes[1]} às ${partes[4]}:${partes[5]}` : dataHora;
}

function documento(titulo: string, corpo: string): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapar(titulo)}</title>
<style>${ESTILO}</style>
</head>
<body>
<main>
${corpo}
</main>
<footer>Rastreamento fornecido por Trilha</footer>
</body>
</html>
`;
}

function volume(item: VistaDoCliente['volumes'][number]): string {
  const eventos = item.eventos.length
    ? `<ol>\n${item.eventos
        .map((evento, index) =>
          `<li${index === 0 ? ' class="recente"' : ''}><time datetime="${escapar(evento.dataHora)}">${escapar(dataHoraLocal(evento.dataHora))}</time><p>${escapar(evento.descricao)}</p></li>`)
        .join('\n')}\n</ol>`
    : '<p class="vazio">Ainda não há movimentações deste volume.</p>';
  const codigo = item.codigoRastreio ? `\n<p class="codigo">Código de rastreio: ${escapar(item.codigoRastreio)}</p>` : '';
  return `<section class="volume">
<div class="cabeca"><h2>${escapar(item.rotulo)}</h2><span class="status ${item.status}">${STATUS[item.status]}</span></div>${codigo}
${eventos}
</section>`;
}

export function paginaRastreio(vista: VistaDoCliente): string {
  const total = vista.volumes.length;
  const resumo = total === 0 ? 'Seu pedido ainda não tem volumes enviados.' : total === 1 ? '1 volume' : `${total} volumes`;
  return documento(
    `Pedido ${vista.numeroPedido} · Rastreamento`,
    `<p class="marca">Rastreamento</p>
<h1>Pedido ${escapar(vista.numeroPedido)}</h1>
<p class="resumo">${resumo}</p>
${vista.volumes.map(volume).join('\n')}`,
  );
}

export function paginaNaoEncontrada(): string {
  return documento(
    'Rastreamento não encontrado',
    `<p class="marca">Rastreamento</p>
<h1>Não encontramos este rastreamento</h1>
<p class="resumo">O link pode estar incompleto ou ter sido digitado com algum erro.</p>
<section class="volume">
<p class="vazio">Confira o endereço recebido da loja ou peça a ela um novo link de rastreamento.</p>
</section>`,
  );
}
