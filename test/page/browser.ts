import puppeteer, { type Browser, type Page } from 'puppeteer-core';

// Debian's chromium driven by puppeteer-core (never a downloaded browser), as test/docs/docs-page does,
// and a page that records what must not happen: a CSP refusal, a console error, an uncaught exception,
// a request to anywhere but this server.

export function launch(): Promise<Browser> {
  return puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], headless: true });
}

export interface Watched {
  page: Page;
  trouble(): Promise<string[]>;
}

export async function openWatched(browser: Browser, url: string): Promise<Watched> {
  const page = await browser.newPage();
  const seen: string[] = [];
  const origin = new URL(url).origin;
  page.on('console', (m) => (m.type() === 'error' ? seen.push(`console: ${m.text()}`) : undefined));
  page.on('pageerror', (err) => seen.push(`uncaught: ${String(err)}`));
  page.on('request', (r) => (r.url().startsWith(origin) || r.url().startsWith('data:') ? undefined : seen.push(`elsewhere: ${r.url()}`)));
  await page.evaluateOnNewDocument(() => {
    const doc = (globalThis as any).document;
    doc.addEventListener('securitypolicyviolation', (e: any) => console.error(`csp: ${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  await page.setViewport({ width: 1100, height: 1300 });
  await page.goto(url, { waitUntil: 'networkidle0' });
  await page.waitForSelector('body[data-ready="true"]');
  return { page, trouble: async () => [...seen] };
}

// Fills a form field the way a person does: select what is there, type over it.
export async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await page.click(selector, { count: 3 });
  await page.keyboard.press('Backspace');
  await page.type(selector, text);
}

export const count = (page: Page, selector: string): Promise<number> => page.$$eval(selector, (els) => els.length);
export const textOf = (page: Page, selector: string): Promise<string> => page.$eval(selector, (e) => e.textContent ?? '');
