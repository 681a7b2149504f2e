// Generic lure families in the languages kits are written in (en, de, fr, es, pt, ru, it, nl, zh, ja): account
// threats with deadline pressure, investment-return promises, ClickFix / fake-captcha "paste and run" instructions
// and fake browser updates. Each family is a set of phrasings (a threat verb × an account noun…), never a copy of
// one page's sentence. Patterns are flat alternations with bounded gaps (`.{0,40}`), run on NFKC-folded,
// lower-cased text capped by the caller.

export interface FamilyHits {
  /** The text each matching pattern found (first match per pattern, ≤ 80 chars). */
  phrases: string[];
}

function hits(text: string, patterns: readonly RegExp[]): string[] {
  const out: string[] = [];
  for (const p of patterns) {
    const m = p.exec(text);
    if (m) out.push(m[0].slice(0, 80));
  }
  return out;
}

/** An account (or page, profile, mailbox, card) is blocked, limited, about to close, or saw suspicious activity. */
const ACCOUNT_THREAT: readonly RegExp[] = [
  /\b(?:account|page|profile|mailbox|card|access|apple id|wallet)\b.{0,40}\b(?:has been|was|is|will be|temporarily|permanently)\b.{0,20}\b(?:suspended|locked|limited|restricted|disabled|deactivated|blocked|closed|deleted|terminated|frozen|on hold)\b/,
  /\b(?:unusual|suspicious|unauthori[sz]ed|unrecognized) (?:activity|sign[- ]?in|log[- ]?in|login attempt|access|transaction)s?\b/,
  /\b(?:verify|confirm|validate|update|restore|reactivate|unlock)\b.{0,12}\b(?:your|the)\b.{0,12}\b(?:account|identity|information|details|billing|mailbox|page)\b/,
  /\b(?:violat(?:ed|ion|ing)|breach(?:ed)?)\b.{0,40}\b(?:policy|policies|terms|community standards|copyright|guidelines)\b/,
  /\b(?:konto|zugang|postfach|karte)\b.{0,40}\b(?:gesperrt|eingeschr[aä]nkt|deaktiviert|blockiert|gek[uü]ndigt)\b|\bungew[oö]hnliche aktivit[aä]t|\b(?:best[aä]tigen|verifizieren|aktualisieren) sie ihr(?:e)? (?:konto|identit[aä]t|daten|angaben)/,
  /\bcompte\b.{0,40}\b(?:suspendu|bloqu[eé]|limit[eé]|d[eé]sactiv[eé]|restreint|ferm[eé])|\bactivit[eé] (?:inhabituelle|suspecte)|\b(?:v[eé]rifiez|confirmez|mettez [aà] jour) votre (?:compte|identit[eé]|informations)/,
  /\bcuenta\b.{0,40}\b(?:suspendida|bloqueada|limitada|desactivada|restringida|cerrada)|\bactividad (?:inusual|sospechosa)|\b(?:verifique|confirme|actualice|verifica|confirma) su (?:cuenta|identidad|informaci[oó]n)/,
  /\bconta\b.{0,40}\b(?:suspensa|bloqueada|limitada|desativada|restrita|encerrada)|\batividade (?:incomum|suspeita)|\b(?:verifique|confirme|atualize) (?:sua|a sua) (?:conta|identidade)/,
  /(?:аккаунт|учетн\S{0,12} запис|учётн\S{0,12} запис|страниц|карт|доступ)\S{0,12}.{0,40}(?:заблокирован|ограничен|приостановлен|отключен|удален|заморожен)|(?:подозрительн|необычн)\S{0,12} (?:активност|вход|операци)|подтвердите (?:свою |вашу )?(?:личность|аккаунт|учетную запись|учётную запись|данные)/,
  /\baccount\b.{0,40}\b(?:sospeso|bloccato|limitato|disattivato|chiuso)|\battivit[aà] (?:insolita|sospetta)|\b(?:verifica|conferma|aggiorna) (?:il tuo|la tua|i tuoi) (?:account|identit[aà]|dati)/,
  /\b(?:account|rekening)\b.{0,40}\b(?:geblokkeerd|opgeschort|beperkt|gedeactiveerd|afgesloten)|\bongebruikelijke activiteit|\b(?:verifieer|bevestig) (?:uw|je) (?:account|identiteit|gegevens)/,
  /(?:账户|帐户|账号|帳號|帳戶).{0,10}(?:冻结|凍結|锁定|鎖定|停用|暂停|暫停|限制)|异常(?:活动|登录)|異常(?:活動|登入)|验证您的(?:身份|账户)/,
  /アカウント.{0,10}(?:停止|ロック|制限|凍結|無効)|不審な(?:アクティビティ|ログイン|アクセス)|本人確認/,
  // mailbox quota, held messages and expiring passwords: the webmail kit's story, in several languages
  /\b(?:mailbox|inbox|e-?mail (?:account|storage)|storage quota)\b.{0,30}\b(?:full|almost full|exceeded|over quota|limit reached|out of (?:storage|space))\b|\b(?:pending|held|undelivered|blocked|suspended) (?:incoming )?(?:e-?mails?|messages)\b|\bpassword (?:will )?expires?\b|\bpassword (?:has )?expired\b|\bpostfach\b.{0,20}\b(?:voll|überschritten)|\bpasswort läuft\b.{0,20}\bab\b|\bbo[iî]te (?:aux lettres|mail|de r[eé]ception)\b.{0,20}\bpleine|\bmot de passe expire|\bbuz[oó]n\b.{0,20}\blleno|\bcontrase[nñ]a (?:caduca|expira)|почтов\S{0,12} ящик\S{0,12}.{0,20}переполнен|срок действия пароля/,
];

/** Deadlines and consequences that push the visitor to act now. */
const PRESSURE: readonly RegExp[] = [
  /\b(?:within|in the next) (?:24|48|72|12) ?(?:hours|hrs|h)\b|\b(?:immediately|as soon as possible|right away)\b|\bto avoid (?:suspension|closure|deactivation|termination|losing)/,
  /\binnerhalb (?:von )?(?:24|48|72) stunden|\bdans les (?:24|48|72) heures|\ben (?:las )?(?:pr[oó]ximas )?(?:24|48|72) horas|\bem (?:24|48|72) horas|в течение (?:24|48|72) час|\bentro (?:24|48|72) ore|\bbinnen (?:24|48|72) uur|(?:24|48|72) ?小时内|(?:24|48|72) ?時間以内/,
  /\b(?:will be (?:permanently )?(?:deleted|disabled|deactivated|closed|suspended)|soon)\b/,
];

/** Investment and crypto return promises: one entry per concept, each in every language, so hits count concepts. */
const INVESTMENT: readonly RegExp[] = [
  // guaranteed or risk-free returns
  /\bguaranteed (?:profits?|returns?|income|earnings)\b|\brisk[- ]free (?:investment|returns?|profits?)\b|гарантированн\S{0,12} (?:доход|прибыл|выплат|заработ)|\b(?:garantierte|sichere) (?:rendite|gewinne|einnahmen)|\brendements? garantis?|\bganancias garantizadas|\blucros? garantidos?|\bguadagn[oi] garantit[oi]|\bgegarandeerd rendement|保本|稳赚|穩賺|元本保証/,
  // passive income
  /\bpassive income\b|пассивн\S{0,12} доход|\bpassives einkommen|\brevenus? passifs?|\bingresos pasivos|\brenda passiva|\brendita passiva|\bpassief inkomen|被动收入|被動收入|不労所得/,
  // earnings per day or a daily percentage
  /\bearn (?:up to )?[$€£]?\s?\d[\d,.]{0,8}\s?(?:[$€£]|usd|eur)?\s?(?:per|a|every) (?:day|week|hour)\b|\b\d{1,3}(?:\.\d)?\s?% (?:daily|per day|a day|weekly|roi|profit)\b|\bdaily (?:profit|returns?|roi|payouts?)\b|(?:доход|прибыль|заработ\S{0,12})[^.]{0,30}(?:в день|в сутки|каждый день)|\d[\d\s.,]{0,8}\s?(?:€|\$|euro?s?|руб\S{0,12}|рублей)?\s?(?:pro tag|par jour|al d[ií]a|por dia|al giorno|per dag|в день)|日收益|日利/,
  // plans, deposits, withdrawals, no experience needed
  /\b(?:investment|trading|mining|staking) (?:plans?|packages?|bot)\b|\bminimum (?:deposit|investment)\b|\binstant withdrawals?\b|инвестиционн\S{0,12} (?:план|платформ|проект)|без вложений|без опыта|高收益投资|高配当/,
  // doubling crypto or money
  /\bdouble your (?:bitcoin|btc|eth|crypto|money|investment|deposit)\b|удвои\S{0,12} (?:ваш\S{0,12} )?(?:биткоин|депозит|деньги|вложени)/,
];

/** "Press Win+R, paste, press Enter" and their translations; a fake captcha's "verify you are human" step. */
const CLICKFIX_STEPS: readonly RegExp[] = [
  /(?:win(?:dows)?(?: key| logo key|-taste| キー)?|⊞|\[win\]|windows键)\s?(?:\+|and|&|und|et|y|e|и)\s?["'“]?r\b/,
  /\b(?:ctrl|strg|control)\s?\+\s?v\b.{0,60}\b(?:enter|entr[eé]e|eingabe|intro|invio)\b|\bpaste\b.{0,40}\b(?:run|terminal|powershell|command prompt|dialog)\b/,
  /\brun (?:dialog|box|window)\b|\bopen (?:the )?(?:run dialog|powershell|terminal|command prompt)\b|\bcmd\.exe\b|\bwindows powershell\b|⌘\s?\+\s?space.{0,40}terminal/,
  /\bverify (?:that )?you(?:'re| are) (?:a )?human\b|\bi(?:'m| am) not a robot\b|\bverification steps?\b|\bhuman verification\b|подтвердите, что вы не робот|vérifiez que vous êtes humain|verifica(?:r)? que (?:no )?eres humano/,
];
/** A command a victim would paste: what ClickFix puts on the clipboard. */
const RUNNABLE_COMMAND =
  /\b(?:powershell(?:\.exe)?|pwsh|mshta(?:\.exe)?|cmd(?:\.exe)? \/[ck]|rundll32|regsvr32|msiexec|bitsadmin|certutil(?:\.exe)? -|wscript|cscript|iex\b|invoke-expression|invoke-webrequest|iwr\b|start-process|osascript)|\b(?:curl|wget)\b[^|\n]{0,300}\|\s?(?:ba|z)?sh\b|\bbase64 -[dD]\b[^|\n]{0,100}\|\s?(?:ba|z)?sh\b/i;
const CLIPBOARD_WRITE =
  /navigator\s*\.\s*clipboard\s*\.\s*write(?:Text)?\s*\(|execCommand\s*\(\s*["']copy["']|clipboardData\s*\.\s*setData\s*\(/;

/** Browser, plugin or codec updates offered as a download. */
const FAKE_UPDATE: readonly RegExp[] = [
  /\b(?:update|upgrade|install)\b.{0,30}\b(?:chrome|firefox|edge|safari|browser|flash player|adobe flash|video codec|media player|plugin|plug-in)\b/,
  /\b(?:your|this) (?:browser|chrome|firefox|edge|version)\b.{0,40}\b(?:out of date|outdated|obsolete|not supported|needs? (?:an )?update|requires? (?:an )?update)\b/,
  /\b(?:critical|security|required|important) (?:browser |chrome |security )?update\b/,
];
const EXECUTABLE_LINK =
  /\.(?:exe|msi|msix|scr|hta|vbs|vbe|js|jse|wsf|bat|cmd|ps1|apk|dmg|pkg|iso|img|lnk|zip|rar|7z)(?:$|[?#])/i;

export function accountThreat(text: string): { threat: string[]; pressure: string[] } {
  return { threat: hits(text, ACCOUNT_THREAT), pressure: hits(text, PRESSURE) };
}

export function investmentPromises(text: string): string[] {
  return hits(text, INVESTMENT);
}

export interface ClickFixEvidence {
  steps: string[];
  /** The command the page puts on the clipboard or shows to paste (≤ 160 chars). */
  command?: string;
  clipboard_write: boolean;
}

/** Reads the visible text for instructions and the inline scripts for a clipboard write of a runnable command. */
export function clickFix(text: string, scripts: readonly string[]): ClickFixEvidence {
  const steps = hits(text, CLICKFIX_STEPS);
  let clipboardWrite = false;
  let command: string | undefined;
  for (const s of scripts.slice(0, 50)) {
    const src = s.slice(0, 200_000);
    if (CLIPBOARD_WRITE.test(src)) {
      clipboardWrite = true;
      const m = RUNNABLE_COMMAND.exec(src);
      if (m) command ??= src.slice(Math.max(0, m.index - 20), m.index + 140).replace(/\s+/g, ' ');
    }
  }
  if (!command) {
    const shown = RUNNABLE_COMMAND.exec(text);
    if (shown && steps.length > 0) command = text.slice(shown.index, shown.index + 160);
  }
  return { steps, clipboard_write: clipboardWrite, ...(command ? { command } : {}) };
}

export function fakeUpdate(text: string, hrefs: readonly string[]): { phrases: string[]; downloads: string[] } {
  return {
    phrases: hits(text, FAKE_UPDATE),
    downloads: hrefs.filter((h) => EXECUTABLE_LINK.test(h.split('#')[0] ?? '')).slice(0, 5),
  };
}
