import type { EntityManager } from 'typeorm';
import type { TrackingMessage } from '@trilha/contracts';
import { writeAtCommit, type PreparedStatement } from '@trilha/event-store';

/**
 * An upsert's update, made only when it changes something: most tracking events repeat what the
 * view already has of the order and the volume, and a repeat then writes no new row version
 * (nothing for autovacuum to clean up, no new index entries).
 */
const atualizarSeMudar = (tabela: string, valores: Record<string, string>, daLoja: string) => `
  DO UPDATE SET ${Object.entries(valores).map(([coluna, valor]) => `${coluna} = ${valor}`).join(', ')}
  WHERE ${tabela}.id_loja = ${daLoja}
    AND (${Object.keys(valores).map((coluna) => `${tabela}.${coluna}`).join(', ')}) IS DISTINCT FROM (${Object.values(valores).join(', ')})`;

const salvarPedido = (canal: string) => `
  INSERT INTO rastreio_pedidos (id_pedido, id_loja, numero_pedido, tipo_pedido, pedido_canal, link_rastreio)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (id_pedido) ${atualizarSeMudar('rastreio_pedidos', { numero_pedido: '$3', tipo_pedido: '$4', pedido_canal: canal, link_rastreio: '$6' }, '$2')}`;

/**
 * The order, its volume and the event in one statement: the data-modifying CTEs write the
 * order and the volume, the main statement the event. `seJaExiste`: a registration of a
 * known hash changes nothing; a correction gives the event's values as they now are,
 * visibility included.
 */
const salvarEvento = (seJaExiste: string) => `
  WITH pedido AS (${salvarPedido('COALESCE($5, rastreio_pedidos.pedido_canal)')}),
  volume AS (
    INSERT INTO rastreio_volumes (id_pedido, chave_envio, id_loja, codigo_rastreio, codigo_envio, rotulo, encerrado)
    VALUES ($1, $7, $2, $8, $9, $10, $11)
    ON CONFLICT (id_pedido, chave_envio) ${atualizarSeMudar('rastreio_volumes', {
      codigo_rastreio: 'COALESCE($8, rastreio_volumes.codigo_rastreio)',
      codigo_envio: 'COALESCE($9, rastreio_volumes.codigo_envio)',
      rotulo: 'COALESCE($10, rastreio_volumes.rotulo)',
      encerrado: 'rastreio_volumes.encerrado OR $11',
    }, '$2')})
  INSERT INTO rastreio_eventos (id_loja, hash, id_pedido, chave_envio, data_hora, descricao, visivel)
  VALUES ($2, $12, $1, $7, $13, $14, $15)
  ON CONFLICT (id_loja, hash) ${seJaExiste}`;

/** The view's statements, each prepared once per connection: their planning costs PostgreSQL more than their run. */
const SALVAR_PEDIDO: PreparedStatement = { name: 'atendimento_salvar_pedido', text: salvarPedido('$5') };
const REGISTRAR_EVENTO: PreparedStatement = { name: 'atendimento_registrar_evento', text: salvarEvento('DO NOTHING') };
const CORRIGIR_EVENTO: PreparedStatement = { name: 'atendimento_corrigir_evento', text: salvarEvento('DO UPDATE SET data_hora = $13, descricao = $14, visivel = $15') };

/**
 * Applies a tracking event to the agents' view of the stores' orders, in one statement (sent
 * with other messages' writes when the consumer handles several partitions at once).
 * Messages of one store arrive in order (key = idLoja), so the last one read has the order's
 * current identifiers.
 *
 * Idempotent under redelivery in order, so it needs no inbox: every column is either set to the
 * message's value (the last message decides), kept when the message has none (COALESCE: the
 * last message that has one decides), or only ever turned on (a closed volume); a registration
 * of a known hash changes nothing and a correction sets the event's values. Replaying any
 * suffix of a store's messages therefore ends where the first pass did.
 */
export async function aplicarEventoDeRastreio(event: TrackingMessage, manager: EntityManager): Promise<void> {
  const { idLoja } = event;
  const pedido = event.data;
  const doPedido = [pedido.idPedido, idLoja, pedido.numeroPedido, pedido.tipoPedido, pedido.pedidoCanal ?? null, pedido.linkRastreio];
  // pedido.salvo carries the order as it now is; a tracking event may leave pedidoCanal out.
  if (event.type === 'pedido.salvo') return writeAtCommit(manager, SALVAR_PEDIDO, doPedido);
  const { data } = event;
  const registrado = event.type === 'rastreio.evento.registrado';
  await writeAtCommit(manager, registrado ? REGISTRAR_EVENTO : CORRIGIR_EVENTO, [
    ...doPedido,
    data.chaveEnvio, data.codigoRastreio ?? null, data.codigoEnvio ?? null, data.rotulo ?? null, registrado && event.data.encerraVolume,
    data.hash, data.dataHora, data.descricao, data.visivelClienteFinal,
  ]);
}
