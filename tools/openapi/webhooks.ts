import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { NOTIFICATIONS } from '@trilha/contracts';

const HEADERS = [
  { name: 'webhook-id', description: 'Id do evento; o mesmo em todas as tentativas (use-o para descartar repetições).' },
  { name: 'webhook-timestamp', description: 'Segundos Unix do envio.' },
  {
    name: 'webhook-signature',
    description: 'v1,<base64 do HMAC-SHA256 de "<webhook-id>.<webhook-timestamp>.<corpo>" com a parte base64 do segredo após "whsec_"> (Standard Webhooks).',
  },
  { name: 'traceparent', description: 'Contexto W3C do rastro que originou o evento.' },
];

/**
 * The OpenAPI 3.1 `webhooks` section: every notification a store receives, with the schema of
 * its `data` generated from the payload class consumers validate against, and its example
 * (`exemplo`, validated against that class by libs/contracts/src/notifications.spec.ts).
 */
export function webhooksSection(): { webhooks: Record<string, unknown>; schemas: Record<string, unknown> } {
  const all = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' }) as Record<string, unknown>;
  const schemas: Record<string, unknown> = {};
  const webhooks: Record<string, unknown> = {};
  for (const notification of NOTIFICATIONS) {
    const name = notification.data.name;
    schemas[name] = all[name];
    webhooks[notification.evento] = {
      post: {
        operationId: `webhook:${notification.evento}`,
        summary: notification.descricao,
        description: `Enviado quando o campo \`${notification.flag}\` do webhook está ligado (padrão). Sem webhook, ou após a última tentativa falhar, vai para a fila (GET /fila/lista).`,
        'x-trilha-flag': notification.flag,
        parameters: HEADERS.map((header) => ({ in: 'header', name: header.name, required: header.name !== 'traceparent', description: header.description, schema: { type: 'string' } })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { evento: { const: notification.evento }, data: { $ref: `#/components/schemas/${name}` } },
                required: ['evento', 'data'],
              },
              example: { evento: notification.evento, data: notification.exemplo },
            },
          },
        },
        responses: { '200': { description: 'Recebido. Qualquer outra resposta, ou nenhuma em 10 s, é uma falha e haverá nova tentativa.' } },
      },
    };
  }
  // Nested payload classes (e.g. dadosCliente) are referenced by name too.
  for (const schema of Object.values(schemas)) {
    for (const ref of JSON.stringify(schema).match(/#\/components\/schemas\/(\w+)/g) ?? []) {
      const nested = ref.split('/').pop()!;
      schemas[nested] ??= all[nested];
    }
  }
  return { webhooks, schemas };
}
