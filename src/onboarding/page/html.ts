/**
 * HTML shells for the public KYC onboarding page.
 *
 * The pages are served under a strict Content-Security-Policy
 * (`script-src 'self'; style-src 'self'`), so nothing here may contain inline
 * scripts, `<style>` blocks or `style=` attributes: all behaviour lives in
 * `assets/onboarding.js` and all styling in `assets/onboarding.css`.
 * Every interpolated value goes through `escapeHtml`.
 */

const STYLESHEET_URL = '/onboarding/assets/onboarding.css';
const SCRIPT_URL = '/onboarding/assets/onboarding.js';
const FALLBACK_HEADER = 'Identity verification';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for use in HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

interface DocumentOptions {
  title: string;
  headerText: string;
  mainContent: string;
  withScript: boolean;
}

function renderDocument(options: DocumentOptions): string {
  const script = options.withScript ? `\n    <script src="${escapeHtml(SCRIPT_URL)}" defer></script>` : '';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <meta name="robots" content="noindex, nofollow">
    <title>${escapeHtml(options.title)}</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${escapeHtml(STYLESHEET_URL)}">${script}
  </head>
  <body>
    <a class="skip-link" href="#main">Skip to main content</a>
    <header class="site-header">
      <div class="site-header__inner">
        <span class="site-header__name">${escapeHtml(options.headerText)}</span>
      </div>
    </header>
    <main id="main" class="container" tabindex="-1">
${options.mainContent}
    </main>
  </body>
</html>
`;
}

function displayName(companyName: string | null | undefined): string {
  const trimmed = typeof companyName === 'string' ? companyName.trim() : '';
  return trimmed === '' ? FALLBACK_HEADER : trimmed;
}

/**
 * The form page shell. The form itself is rendered by `onboarding.js` from
 * `GET /onboarding/<token>/form`; until then a loading text is shown.
 */
export function formPage(options: { companyName: string }): string {
  const name = displayName(options.companyName);
  const mainContent = `      <p class="loading" role="status">Loading your form…</p>
      <noscript>
        <section class="panel">
          <h1>Verify your identity</h1>
          <p>This form needs JavaScript. Please turn on JavaScript in your browser settings, or open this link in a different browser, and then reload the page.</p>
        </section>
      </noscript>`;
  return renderDocument({
    title: `Verify your identity — ${name}`,
    headerText: name,
    mainContent,
    withScript: true,
  });
}

/**
 * A friendly full page for cases where the form cannot be shown
 * (unknown link, expired or already used link, …). No script needed.
 */
export function messagePage(options: { title: string; message: string; companyName?: string | null }): string {
  const name = displayName(options.companyName);
  const mainContent = `      <section id="message-panel" class="panel" aria-labelledby="message-panel-title">
        <h1 id="message-panel-title">${escapeHtml(options.title)}</h1>
        <p>${escapeHtml(options.message)}</p>
      </section>`;
  return renderDocument({
    title: `${options.title} — ${name}`,
    headerText: name,
    mainContent,
    withScript: false,
  });
}
