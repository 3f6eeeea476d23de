import { apiClient, clientAddress, createStore, eventually, readiness, startReplica, testStack, type Replica } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const admin = { 'x-admin-key': stack.adminApiKey };

describe('a gateway replica whose consumer is not in its group yet', () => {
  it('refuses at once a store deactivated while its consumer joins, and follows the store once it has joined', async () => {
    const env = {
      PUBLIC_PORT: String(stack.ports.gateway + 75),
      OPS_PORT: String(stack.ports.ops['api-gateway'] + 75),
      INSTANCE_ID: 'serial-antes-do-grupo',
    };
    const naReplica = (token: string) => api('GET', `https://localhost:${env.PUBLIC_PORT}/v1/loja`, { token });
    const loja = await createStore('Loja antes do grupo');
    let replica: Replica = await startReplica(stack, 'api-gateway', 'api-gateway-antes-do-grupo', env);
    try {
      await eventually('the replica’s consumer in its group', async () => (await readiness(Number(env.OPS_PORT)))?.checks.consumer === 'ok' || undefined, 30_000, 100);
      expect((await naReplica(loja.token)).status).toBe(200);

      // Killed and started again at once: its group (the same INSTANCE_ID) waits for the dead
      // member's session to end before the new one joins, and the replica serves meanwhile.
      replica.child.kill('SIGKILL');
      await replica.stop();
      replica = await startReplica(stack, 'api-gateway', 'api-gateway-antes-do-grupo', env);
      expect((await naReplica(loja.token)).status).toBe(200);
      expect((await api('POST', `/admin/lojas/${loja.idLoja}/desativar`, { headers: admin })).status).toBe(200);
      const refused = await naReplica(loja.token);
      // The deactivation is on Kafka by now, and the replica's consumer still joining.
      expect((await readiness(Number(env.OPS_PORT)))?.checks.consumer).toBe('joining its group');
      expect(refused.status).toBe(401);

      // Once in its group, it trusts what it holds and follows the store's events again: the
      // activation reaches it within moments (a token issued before the deactivation stays revoked).
      await eventually('the replica’s consumer in its group again', async () => (await readiness(Number(env.OPS_PORT)))?.checks.consumer === 'ok' || undefined, 30_000, 100);
      expect((await naReplica(loja.token)).status).toBe(401);
      expect((await api('POST', `/admin/lojas/${loja.idLoja}/ativar`, { headers: admin })).status).toBe(200);
      const fresh = await api('GET', `/autenticacao/${loja.codigo}`, { headers: clientAddress() });
      expect(fresh.status).toBe(200);
      await eventually('the activation followed by the replica', async () => (await naReplica(fresh.body.token)).status === 200 || undefined, 2000, 20);
    } finally {
      await replica.stop();
    }
  }, 120_000);
});
