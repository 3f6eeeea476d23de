import { EnderecoGuard, EnderecoRecusado } from './endereco.guard';

describe('EnderecoGuard', () => {
  const guard = new EnderecoGuard([], [], new Map([['interno', [{ address: '10.0.0.5', family: 4 }]], ['publico', [{ address: '93.184.216.34', family: 4 }]]]));

  it('refuses a name that points to a private address without saying which address', async () => {
    const refusal = await guard.resolver('interno').catch((error: Error) => error);
    expect(refusal).toBeInstanceOf(EnderecoRecusado);
    expect((refusal as Error).message).toBe('endereço não permitido: interno não aponta para um endereço público (loopback, rede privada, link-local ou metadados são recusados)');
    expect((refusal as Error).message).not.toContain('10.0.0.5');
  });

  it('gives the allowed addresses of a public name', async () => {
    expect(await guard.resolver('PUBLICO')).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });
});
