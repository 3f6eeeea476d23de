import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { apiClient, createStore, eventually, isVerification, openConversation, queueWith, registerWebhook, testStack, WebhookReceiver, type TestStore } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const receiver = WebhookReceiver.forTestFile(stack);
const CHROMIUM = '/usr/bin/chromium';
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** Screenshots of every page: into the stack's directory, or where TRILHA_SCREENSHOTS_DIR says (README: refreshing docs/portal). */
const SCREENSHOTS = process.env.TRILHA_SCREENSHOTS_DIR ? resolve(process.env.TRILHA_SCREENSHOTS_DIR) : join(stack.dataDir, 'screenshots');
const ORIGIN = new URL(stack.baseUrl).origin;
/** Links and sessions are kept as the SHA-256 of their secret. */
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Customer text that must reach the page as text: markup, an attribute breakout, bidi overrides, emoji, the longest message. */
const HOSTIS = [
  '<script>window.__invadido = 1</script><img src=x onerror="window.__invadido = 2">',
  '"onmouseover="window.__invadido = 3" x="',
  'pedido \u202Egnp.exe\u202C pago 🎉🧾👍🏽',
  `${'Mensagem longa '.repeat(266)}fim`.slice(0, 4000),
];

type Capacidade = 'ver' | 'gerenciar';

async function linkPortal(store: TestStore, capacidade: Capacidade): Promise<string> {
  const response = await api('POST', '/portal/links', { token: store.token, body: { capacidade } });
  expect(response.status).toBe(201);
  expect(response.body.url).toMatch(/\/portal\/#[A-Za-z0-9_-]{20,}$/);
  return response.body.url;
}

/** Opens a link in a fresh browser context (its own cookie jar): the portal starts its session. */
async function abrir(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('nav[aria-label="Páginas do portal"]').waitFor();
  // The link's secret is gone from the address and the history.
  expect(page.url()).toBe(`${ORIGIN}/portal/#webhook`);
  return page;
}

async function irPara(page: Page, titulo: string): Promise<void> {
  await page.getByRole('link', { name: titulo, exact: true }).click();
  await page.locator('h1', { hasText: titulo }).waitFor();
}

/** axe-core in the page (its source evaluated: the CSP admits no injected script tag): no serious or critical violation. */
async function semViolacoesGraves(page: Page): Promise<void> {
  await page.evaluate(AXE);
  const violacoes = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, alvos: v.nodes.map((n) => n.target.join(' ')) })))`)) as unknown[];
  expect(violacoes).toEqual([]);
}

async function fotografar(page: Page, nome: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(join(SCREENSHOTS, `${nome}.png`), await page.screenshot({ fullPage: true }));
}

/** What the page's own script can see: whether any hostile text ran or became an element or attribute. */
async function nadaInjetado(page: Page): Promise<void> {
  expect(await page.evaluate(`({ invadido: window.__invadido ?? null, scripts: document.querySelectorAll('body script, img[src="x"], [onmouseover], [onerror]').length })`)).toEqual({ invadido: null, scripts: 0 });
}

describe('the store portal at /portal/, in a real browser', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let lojaA: TestStore;
  let lojaB: TestStore;
  const desktop = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ignoreHTTPSErrors: true, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
    contexts.push(context);
    return context;
  };
  const phone = async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, ignoreHTTPSErrors: true, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
    contexts.push(context);
    return context;
  };

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    // Store A: a webhook that answers 500 to its messages (failed deliveries to inspect and resend).
    // Store B: no webhook, so its events wait in its queue.
    [lojaA, lojaB] = await Promise.all([createStore('Loja A <b>Portal</b>'), createStore('Loja B Portal')]);
    receiver.on('/a', (request) => (isVerification(request) || !request.body.includes('atendimento.mensagem') ? { status: 200 } : { status: 500, body: '<h1>erro do receptor</h1>' }));
    await registerWebhook(lojaA, receiver.url('/a'));
    for (const loja of [lojaA, lojaB]) {
      const { criado } = await openConversation(loja);
      for (const mensagem of HOSTIS) {
        const response = await api('POST', `/atendimentos/${criado.idAtendimento}/mensagens`, { token: loja.token, body: { direcao: 'entrada', remetente: 'cliente', mensagem } });
        expect(response.status).toBe(201);
      }
    }
    await queueWith(lojaB, 1 + HOSTIS.length);
    // Their retries spent before any test edits store A's webhook: a retry sent after the edit
    // would reach the new URL, be answered 200, and leave no failure to inspect.
    await eventually('store A’s deliveries failed for good', async () =>
      (await api('GET', `/webhook/entregas?status=falhou&porPagina=${HOSTIS.length}`, { token: lojaA.token })).body.entregas.length === HOSTIS.length ? true : undefined,
    );
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  it('is served with its policy, cached by content hash and precompressed, each page well under 200 kB', async () => {
    const index = await api('GET', `${ORIGIN}/portal/`);
    expect(index.status).toBe(200);
    // The gateway's headers for it are its own test's (portal-acesso.e2e.spec.ts); here, the
    // build under them: every page below runs with no inline code allowed.
    expect(index.headers).toMatchObject({ 'content-type': expect.stringMatching(/^text\/html/), 'cache-control': 'no-cache' });
    expect(index.headers['content-security-policy']).toMatch(/script-src 'self';/);
    expect(index.headers['content-security-policy']).not.toMatch(/unsafe/);
    const assets = [...index.text.matchAll(/(?:src|href)="(assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(assets).toHaveLength(2);
    let total = 0;
    for (const asset of assets) {
      const response = await api('GET', `${ORIGIN}/portal/${asset}`, { headers: { 'accept-encoding': 'br' } });
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({ 'cache-control': 'public, max-age=31536000, immutable', 'content-encoding': 'br' });
      total += Number(response.headers['content-length']);
    }
    // The app itself; each page adds its first data (tens of kB at most).
    expect(total).toBeLessThan(60_000);
  });

  it('refuses a link used twice, a forged link and a missing session with a page that says what to do', async () => {
    const url = await linkPortal(lojaA, 'ver');
    await (await abrir(await desktop(), url)).close();

    const page = await (await desktop()).newPage();
    await page.goto(url);
    await page.locator('h1', { hasText: 'Este link não vale mais' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Peça um novo link ao sistema da sua loja');
    await semViolacoesGraves(page);
    await fotografar(page, 'link-usado-desktop');

    await page.goto(`${ORIGIN}/portal/#AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
    await page.reload();
    await page.locator('h1', { hasText: 'Link inválido' }).waitFor();

    await page.goto(`${ORIGIN}/portal/#entregas`);
    await page.reload();
    await page.locator('h1', { hasText: 'Sua sessão no portal terminou' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Peça um novo link');
  });

  it('refuses an expired link and ends an expired session with a page that says what to do', async () => {
    const loja = await createStore('Loja Prazos do Portal');
    const db = new Client({ connectionString: stack.infra.databaseUrl });
    await db.connect();
    try {
      // A link not opened within its 15 minutes: its time set in the past, as the clock would.
      const expirado = await linkPortal(loja, 'ver');
      await db.query(`UPDATE gateway.portal_links SET expira_em = now() - interval '1 second' WHERE hash = $1`, [sha256(new URL(expirado).hash.slice(1))]);
      const page = await (await desktop()).newPage();
      await page.goto(expirado);
      await page.locator('h1', { hasText: 'Este link não vale mais' }).waitFor();
      expect(await page.locator('main').innerText()).toMatch(/expirou[\s\S]*Peça um novo link ao sistema da sua loja/);
      await semViolacoesGraves(page);

      // A session past its duration: the portal opened again says so.
      const aberta = await abrir(await desktop(), await linkPortal(loja, 'ver'));
      await db.query(`UPDATE gateway.portal_sessoes SET expira_em = now() - interval '1 second' WHERE id_loja = $1`, [loja.idLoja]);
      await aberta.reload();
      await aberta.locator('h1', { hasText: 'Sua sessão no portal terminou' }).waitFor();
      expect(await aberta.locator('main').innerText()).toMatch(/A sessão do portal expirou[\s\S]*Peça um novo link/);
      await semViolacoesGraves(aberta);
    } finally {
      await db.end();
    }
  });

  it('shows every page to a gerenciar session, accessible on desktop and phone, and performs each action through the API', async () => {
    for (const [tela, contexto] of [['desktop', await desktop()], ['celular', await phone()]] as const) {
      const page = await abrir(contexto, await linkPortal(lojaA, 'gerenciar'));
      expect(await page.locator('.nome-loja').innerText()).toBe('Loja A <b>Portal</b>');
      for (const [titulo, arquivo] of [['Webhook', 'webhook'], ['Entregas', 'entregas'], ['Fila', 'fila'], ['Catálogo de eventos', 'catalogo']] as const) {
        await irPara(page, titulo);
        if (titulo === 'Entregas') await page.locator('table tbody tr').first().waitFor();
        if (titulo === 'Catálogo de eventos') await page.locator('section.cartao').first().waitFor();
        await semViolacoesGraves(page);
        const largura = (await page.evaluate('[document.documentElement.scrollWidth, document.documentElement.clientWidth]')) as number[];
        expect(largura[0]).toBeLessThanOrEqual(largura[1]);
        await fotografar(page, `${arquivo}-${tela}`);
      }
      await page.close();
    }
  });

  it('sends a test event, rotates the secret and edits the webhook', async () => {
    const page = await abrir(await desktop(), await linkPortal(lojaA, 'gerenciar'));
    await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await page.locator('#resultado-teste').waitFor();
    expect(await page.locator('section[aria-labelledby="resultado-teste"]').innerText()).toContain('200');
    await eventually('the test event at the receiver', () => receiver.received.find((r) => r.path === '/a' && r.body.includes('webhook.teste')));

    await page.getByRole('button', { name: 'Rotacionar segredo' }).click();
    const segredo = await page.locator('.segredo-valor').innerText();
    expect(segredo).toMatch(/^whsec_/);
    expect(await page.locator('.segredo').innerText()).toContain('assinatura com o segredo anterior');

    await page.getByRole('button', { name: 'Editar' }).click();
    await page.getByLabel('URL HTTPS').fill(receiver.url('/a?editado=1'));
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.locator('.segredo-valor').waitFor();
    expect(await page.locator('.segredo-valor').innerText()).not.toBe(segredo);
    const webhook = await api('GET', '/webhook', { token: lojaA.token });
    expect(webhook.body.url).toBe(receiver.url('/a?editado=1'));
    await page.close();
  });

  it('activates again a webhook its receiver turned off', async () => {
    // A receiver that answers 410 to a notification turns the webhook off (docs/API.md section 7).
    const loja = await createStore('Loja Webhook Desligado');
    receiver.on('/desligado', (request) => (isVerification(request) ? { status: 200 } : { status: 410 }));
    await registerWebhook(loja, receiver.url('/desligado'));
    await openConversation(loja);
    await eventually('the webhook turned off', async () => ((await api('GET', '/webhook', { token: loja.token })).body.saude.ativo === false ? true : undefined));

    const page = await abrir(await desktop(), await linkPortal(loja, 'gerenciar'));
    await page.getByRole('button', { name: 'Ativar webhook' }).click();
    await page.getByRole('button', { name: 'Ativar webhook' }).waitFor({ state: 'detached' });
    expect((await api('GET', '/webhook', { token: loja.token })).body.saude).toMatchObject({ ativo: true, motivoDesativacao: null });
    await page.close();
  });

  it('lists deliveries with their detail, resends one and recovers the failures, rendering customer text as text', async () => {
    const page = await abrir(await desktop(), await linkPortal(lojaA, 'gerenciar'));
    await irPara(page, 'Entregas');
    await page.getByLabel('Status').selectOption('falhou');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    const linhas = page.locator('table tbody tr');
    await eventually('failed deliveries listed', async () => ((await linhas.count()) >= HOSTIS.length ? true : (await page.getByRole('button', { name: 'Filtrar' }).click(), undefined)));
    await linhas.first().getByRole('link').click();
    await page.locator('h1', { hasText: 'Entrega' }).waitFor();
    const idEntrega = page.url().split('#entregas/')[1];
    // The receiver's answer, markup and all, shown as text once the detail has loaded.
    await page.locator('pre code', { hasText: '<h1>erro do receptor</h1>' }).first().waitFor();
    await nadaInjetado(page);
    await semViolacoesGraves(page);
    await fotografar(page, 'entrega-desktop');

    const antes = (await api('GET', `/webhook/entregas/${idEntrega}`, { token: lojaA.token })).body.tentativas.length;
    await page.getByRole('button', { name: 'Reenviar' }).click();
    await page.getByText('Entrega reenviada').waitFor();
    await eventually('the resent attempt', async () => ((await api('GET', `/webhook/entregas/${idEntrega}`, { token: lojaA.token })).body.tentativas.length > antes ? true : undefined));

    await irPara(page, 'Entregas');
    await page.getByRole('button', { name: 'Reenviar falhas' }).click();
    await page.getByText(/entregas? serão reenviadas|entrega será reenviada/).waitFor();
    await page.close();
  });

  it('shows the queue with hostile payloads as text and deletes one and then many', async () => {
    const page = await abrir(await desktop(), await linkPortal(lojaB, 'gerenciar'));
    await irPara(page, 'Fila');
    await page.locator('.itens-fila li').first().waitFor();
    const textos = (await page.locator('.itens-fila pre code').allInnerTexts()).join('\n');
    for (const hostil of HOSTIS) expect(textos).toContain(JSON.stringify(hostil).slice(1, -1));
    await nadaInjetado(page);
    await semViolacoesGraves(page);

    const fila = await queueWith(lojaB, 1 + HOSTIS.length);
    await page.getByRole('button', { name: /^Remover o evento de/ }).first().click();
    await queueWith(lojaB, HOSTIS.length);
    expect((await api('GET', '/fila/lista?limite=500', { token: lojaB.token })).body.eventos.map((item: { idDocumento: string }) => item.idDocumento)).not.toContain(fila.eventos[0].idDocumento);

    await page.getByLabel('Marcar todos').check();
    await page.getByRole('button', { name: /^Remover marcados/ }).click();
    await queueWith(lojaB, 0);
    await page.close();
  });

  it('hides every change from a ver session, and the API refuses them too', async () => {
    const page = await abrir(await desktop(), await linkPortal(lojaA, 'ver'));
    expect(await page.locator('.capacidade').innerText()).toContain('Somente consulta');
    for (const titulo of ['Webhook', 'Entregas', 'Fila']) {
      await irPara(page, titulo);
      expect(await page.locator('main button').count()).toBe(titulo === 'Entregas' ? 1 : 0); // only "Filtrar"
    }
    const status = await page.evaluate(`fetch('/v1/webhook/segredo/rotacionar', { method: 'POST' }).then((r) => r.status)`);
    expect(status).toBe(403);
    await page.close();
  });

  it('shows store A nothing of store B, and B nothing of A', async () => {
    const paginaA = await abrir(await desktop(), await linkPortal(lojaA, 'gerenciar'));
    const paginaB = await abrir(await desktop(), await linkPortal(lojaB, 'gerenciar'));
    await irPara(paginaB, 'Webhook');
    await paginaB.getByText('Nenhum webhook cadastrado').waitFor();
    const entregaDeA = (await api('GET', '/webhook/entregas?porPagina=1', { token: lojaA.token })).body.entregas[0].idEntrega;
    await paginaB.goto(`${ORIGIN}/portal/#entregas/${entregaDeA}`);
    await paginaB.getByRole('alert').waitFor();
    expect(await paginaB.locator('pre').count()).toBe(0);
    for (const [pagina, outra] of [[paginaA, lojaB], [paginaB, lojaA]] as const) {
      expect(await pagina.evaluate(`fetch('/v1/loja').then((r) => r.json()).then((b) => b.idLoja)`)).not.toBe(outra.idLoja);
    }
    await paginaA.close();
    await paginaB.close();
  });
});
