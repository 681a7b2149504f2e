// What a page asks its visitor to type: the credential-funnel behaviour every lure flag pairs its wording with.
import type { FormField, HtmlDocument, HtmlForm } from '../../core/plugin-api.ts';

export type FieldKind =
  | 'password'
  | 'card_number'
  | 'card_expiry'
  | 'card_security_code'
  | 'one_time_code'
  | 'seed_phrase'
  | 'identity';

/** Field descriptors read as words: `cardNumber`, `cc_number` and `card-number` all become `card number`. */
function descriptorOf(field: FormField): string {
  const a = field.attrs;
  return [a.name, a.id, a.placeholder, a.autocomplete, a['aria-label'], a.title, field.label]
    .filter(Boolean)
    .join(' ')
    .slice(0, 512)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[_\-.]+/g, ' ');
}

// Label words in the languages kits are written in (en, de, fr, es, pt, ru, it, nl, zh, ja, and a few more): a
// kit renders its labels in the victim's language, and a field named `pass` or labelled `Пароль` asks the same.
const PASSWORD_WORDS =
  /\b(?:pass ?word|passwd|pwd|passwort|kennwort|mot de passe|contrase[nñ]a|senha|wachtwoord|parola|l[oö]senord|has[lł]o|[sş]ifre|salasana|adgangskode|passcode)\b|пароль|密码|密碼|パスワード|비밀번호|كلمة المرور/;
const SEED_PHRASE =
  /\b(?:seed ?phrase|seed words|recovery phrase|secret (?:recovery )?phrase|mnemonic|private key|wallet phrase|backup phrase|(?:12|24)[ -]word|keystore|phrase de r[eé]cup[eé]ration|wiederherstellungsphrase|frase (?:semilla|de recupera[cç][aã]o|de recuperaci[oó]n)|frase segreta)\b|сид[- ]?фраз|секретн\S* фраз|фраз\S* восстановлени|助记词|助記詞|リカバリーフレーズ|シードフレーズ/;
const SECURITY_CODE = /\b(?:cvv2?|cvc2?|csc|cid|cc csc|security code|card code|card verification|verification value)\b/;
const CARD_NUMBER =
  /\b(?:card ?(?:number|num|no)|cc ?(?:number|num|no)|credit card|debit card|pan|kartennummer|num[eé]ro de (?:la )?carte|n[uú]mero de (?:la )?tarjeta|n[uú]mero do cart[aã]o|numero (?:di|della) carta|kaartnummer)\b|номер карты|卡号|卡號|カード番号/;
const CARD_EXPIRY = /\b(?:exp|expiry|expiration|expires|cc exp|mm ?\/ ?yy|mm ?\/ ?yyyy|valid thru|valid until)\b/;
const ONE_TIME_CODE =
  /\b(?:otp|one time (?:code|password|passcode)|sms code|2fa|mfa|verification code|auth(?:entication)? code|best[aä]tigungscode|code de (?:v[eé]rification|s[eé]curit[eé]|confirmation)|c[oó]digo de (?:verificaci[oó]n|verifica[cç][aã]o|seguridad|seguran[cç]a)|codice (?:di verifica|otp)|verificatiecode|sms ?tan|mtan)\b|код подтверждения|код из смс|смс[- ]код|验证码|驗證碼|認証コード|確認コード/;
const IDENTITY =
  /\b(?:e ?mail|login|log in|username|user name|user id|userid|identifier|account (?:name|id)|apple id|benutzername|courriel|identifiant|correo|usu[aá]rio|utente|gebruikersnaam|phone or email)\b|логин|почт|用户名|帳號|账号|メールアドレス|ユーザー名/;

/** The credential kind of one field, if it asks for one. Hidden and check fields ask for nothing. */
export function fieldKind(field: FormField): FieldKind | undefined {
  if (['hidden', 'checkbox', 'radio', 'file', 'range', 'color', 'reset'].includes(field.type)) return undefined;
  const words = descriptorOf(field);
  const autocomplete = (field.attrs.autocomplete ?? '').toLowerCase();
  if (autocomplete.includes('cc-csc') || SECURITY_CODE.test(words)) return 'card_security_code';
  if (autocomplete.includes('cc-number') || CARD_NUMBER.test(words)) return 'card_number';
  if (autocomplete.includes('cc-exp') || CARD_EXPIRY.test(words)) return 'card_expiry';
  if (autocomplete === 'one-time-code' || ONE_TIME_CODE.test(words)) return 'one_time_code';
  if (SEED_PHRASE.test(words)) return 'seed_phrase';
  if (field.type === 'password' || autocomplete.includes('password')) return 'password';
  if ((field.type === 'text' || field.tag === 'input') && PASSWORD_WORDS.test(words)) return 'password';
  if (field.type === 'email' || autocomplete === 'username' || autocomplete === 'email' || IDENTITY.test(words)) {
    return 'identity';
  }
  return undefined;
}

/** Form actions that name a sign-in endpoint (`/login.php`, `/ap/signin`, `/auth`, `/session`). */
const SIGN_IN_ACTION =
  /(?:^|[/._-])(?:sign[-_]?in|log[-_]?in|logon|auth|authenticate|session|verify|signon)(?:$|[/._?-])/i;

export interface CredentialFunnel {
  /** Each credential kind the page asks for, once. */
  kinds: FieldKind[];
  /** Password, card or one-time code: what a lure ultimately harvests. */
  harvestsSecrets: boolean;
  harvestsCard: boolean;
  /** Forms that collect credentials or post an identity to a sign-in endpoint: `{action, method, kinds}`. */
  credential_forms: { action: string; method: string; kinds: FieldKind[] }[];
}

const SECRET_KINDS: ReadonlySet<FieldKind> = new Set([
  'password',
  'card_number',
  'card_security_code',
  'one_time_code',
  'seed_phrase',
]);

function kindsOf(fields: readonly FormField[]): FieldKind[] {
  const kinds = new Set<FieldKind>();
  for (const f of fields) {
    const kind = fieldKind(f);
    if (kind) kinds.add(kind);
  }
  return [...kinds];
}

function isCredentialForm(form: HtmlForm, kinds: readonly FieldKind[]): boolean {
  if (kinds.some((k) => SECRET_KINDS.has(k))) return true;
  return kinds.includes('identity') && form.method === 'post' && SIGN_IN_ACTION.test(form.action.split('?')[0] ?? '');
}

/** Per document: the content detector, the brand detector and the followed-page gate all read the same page. */
const funnels = new WeakMap<HtmlDocument, CredentialFunnel>();

export function credentialFunnel(doc: HtmlDocument): CredentialFunnel {
  let funnel = funnels.get(doc);
  if (!funnel) {
    funnel = readFunnel(doc);
    funnels.set(doc, funnel);
  }
  return funnel;
}

function readFunnel(doc: HtmlDocument): CredentialFunnel {
  const all = new Set<FieldKind>(kindsOf(doc.looseFields));
  const credential_forms: CredentialFunnel['credential_forms'] = [];
  for (const form of doc.forms) {
    const kinds = kindsOf(form.fields);
    for (const k of kinds) all.add(k);
    if (isCredentialForm(form, kinds)) credential_forms.push({ action: form.action, method: form.method, kinds });
  }
  const kinds = [...all];
  return {
    kinds,
    harvestsSecrets: kinds.some((k) => SECRET_KINDS.has(k)),
    harvestsCard: kinds.includes('card_number') || kinds.includes('card_security_code'),
    credential_forms,
  };
}

/** Any field a visitor types into: a holding page has none. */
export function hasTextEntry(doc: HtmlDocument): boolean {
  const typed = (f: FormField) => !['hidden', 'submit', 'button', 'image', 'reset'].includes(f.type);
  return doc.looseFields.some(typed) || doc.forms.some((form) => form.fields.some(typed));
}
