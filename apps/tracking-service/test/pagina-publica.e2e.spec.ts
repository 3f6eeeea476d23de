import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { apiClient, createStore, eventually, serviceLogs, testStack } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const CHROMIUM = '/usr/bin/chromium';
const INTERNO = 'Conferência interna do estoque 7731';

describe('the public tracking page at linkRastreio, in a real browser', () => {
  let browser: Browser;
  let phone: BrowserContext;
  let linkRastreio: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, ignoreHTTPSErrors: true });

    const { token } = await createStore('Loja Página');
    const eventos = [
      { codigoRastreio: 'BR123456789BR', rotulo: 'Caixa 1 de 2', dataHora: '2026-11-20T09:15:00-03:00', descricao: 'Pedido postado na agência' },
      { codigoRastreio: 'BR123456789BR', dataHora: '2026-11-21T08:30:00-03:00', descricao: 'Saiu para entrega <b>hoje</b>' },
      { codigoRastreio: 'BR123456789BR', dataHora: '2026-11-20T14:40:00-03:00', descricao: INTERNO, visivelClienteFinal: false },
      { codigoRastreio: 'BR123456789BR', dataHora: '2026-11-22T11:05:00-03:00', descricao: 'Entregue ao destinatário', encerraVolume: true },
      { identificador: 'CX-2', codigoEnvio: 'ENV-0002', dataHora: '2026-11-21T10:00:00-03:00', descricao: 'Volume separado no centro de distribuição' },
    ];
    for (const evento of eventos) {
      const response = await api('POST', '/pedidoRastreio/evento', { token, body: { numeroPedido: '2026-0042', ...evento } });
      expect(response.status).toBe(201);
      linkRastreio = response.body.linkRastreio;
    }
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows every volume with its label and status and only its customer-visible events, newest first', async () => {
    const page = await phone.newPage();
    const response = await page.goto(linkRastreio);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    // Its policy as headers: no framing, no Referer carrying the page's token, HTTPS only.
    expect(response?.headers()).toMatchObject({
      'content-security-policy': expect.stringMatching(/^default-src 'none'; style-src 'sha256-.*frame-ancestors 'none'$/),
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
    });
    // Not in the page, not in its source.
    expect(await response?.text()).not.toContain(INTERNO);
    expect(await page.content()).not.toContain(INTERNO);

    await expect(page.title()).resolves.toBe('Pedido 2026-0042 · Rastreamento');
    expect(await page.locator('h1').innerText()).toBe('Pedido 2026-0042');
    const volumes = page.locator('section.volume');
    expect(await volumes.count()).toBe(2);
    expect(await volumes.locator('h2').allInnerTexts()).toEqual(['Caixa 1 de 2', 'ENV-0002']);
    expect(await volumes.locator('.status').allInnerTexts()).toEqual(['Finalizado', 'Em andamento']);
    expect(await volumes.nth(0).locator('li p').allInnerTexts()).toEqual([
      'Entregue ao destinatário',
      'Saiu para entrega <b>hoje</b>', // escaped: shown as written, not as markup
      'Pedido postado na agência',
    ]);
    expect(await volumes.nth(0).locator('li time').first().innerText()).toBe('22/11/2026 às 11:05');
    expect(await page.locator('b').count()).toBe(0);

    // Fits a phone: no horizontal scrolling, readable text.
    // A string: the test is compiled without the DOM's types.
    const layout = (await page.evaluate(`({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      fontSize: parseFloat(getComputedStyle(document.querySelector('li p')).fontSize),
    })`)) as { scrollWidth: number; clientWidth: number; fontSize: number };
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
    expect(layout.fontSize).toBeGreaterThanOrEqual(14);

    const screenshot = await page.screenshot({ fullPage: true });
    writeFileSync(join(stack.dataDir, 'pagina-publica.png'), screenshot);
    expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
    // A blank or unstyled page compresses to a few kB; this one has cards, badges and text.
    expect(screenshot.length).toBeGreaterThan(40_000);
    expect(screenshot.readUInt32BE(16)).toBe(390 * 2);
    await page.close();
  });

  it('answers an unknown token with a friendly 404 page', async () => {
    const page = await phone.newPage();
    const response = await page.goto(`${linkRastreio.split('/rastreio/')[0]}/rastreio/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(response?.status()).toBe(404);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.locator('h1').innerText()).toBe('Não encontramos este rastreamento');
    writeFileSync(join(stack.dataDir, 'pagina-publica-404.png'), await page.screenshot());
    const malformed = await page.goto(`${linkRastreio.split('/rastreio/')[0]}/rastreio/${encodeURIComponent('<script>')}`);
    expect(malformed?.status()).toBe(404);
    await page.close();
  });

  it('keeps the page token, a credential, out of the request logs', async () => {
    const token = linkRastreio.split('/rastreio/')[1];
    for (const service of ['api-gateway', 'tracking-service']) {
      // The page's own request line is there, with the token replaced.
      await eventually(`${service}'s log line of the page`, () =>
        serviceLogs(stack.dataDir, service).find((line) => (line.req as { url?: string } | undefined)?.url === '/rastreio/…'));
      expect(serviceLogs(stack.dataDir, service).filter((line) => JSON.stringify(line).includes(token))).toEqual([]);
    }
  });
});
