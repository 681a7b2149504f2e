// A rough language guess for sources that do not say their language: script first, then stop-word counts.
const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'you', 'that', 'with', 'for', 'this', 'are', 'is', 'of', 'to', 'your', 'what', 'how'],
  de: ['der', 'die', 'das', 'und', 'nicht', 'ist', 'ich', 'sie', 'mit', 'ein', 'eine', 'zu', 'den', 'auf', 'du'],
  fr: ['le', 'la', 'les', 'et', 'est', 'vous', 'des', 'une', 'pour', 'que', 'pas', 'dans', 'du', 'je', 'tu'],
  es: ['el', 'la', 'los', 'las', 'que', 'es', 'por', 'con', 'una', 'para', 'del', 'en', 'como', 'tu', 'se'],
  pt: ['o', 'os', 'as', 'que', 'não', 'uma', 'para', 'com', 'do', 'da', 'em', 'você', 'é', 'seu', 'sua'],
  it: ['il', 'che', 'non', 'per', 'una', 'sono', 'della', 'con', 'gli', 'di', 'è', 'questo', 'tu'],
  nl: ['de', 'het', 'een', 'en', 'van', 'niet', 'dat', 'je', 'ik', 'zijn', 'met', 'voor', 'op'],
  pl: ['w', 'nie', 'się', 'na', 'że', 'jest', 'z', 'jak', 'co', 'ale', 'przez', 'dla', 'oraz', 'czy'],
};

export function guessLang(text: string): string {
  const sample = text.slice(0, 4000);
  const kana = (sample.match(/[\u3040-\u30ff]/g) ?? []).length;
  const han = (sample.match(/[\u4e00-\u9fff]/g) ?? []).length;
  const hangul = (sample.match(/[\uac00-\ud7af]/g) ?? []).length;
  const cyrillic = (sample.match(/[\u0400-\u04ff]/g) ?? []).length;
  const arabic = (sample.match(/[\u0600-\u06ff]/g) ?? []).length;
  const letters = (sample.match(/\p{L}/gu) ?? []).length || 1;
  if (kana > 5 && kana / letters > 0.05) return 'ja';
  if (han / letters > 0.2) return 'zh';
  if (hangul / letters > 0.2) return 'ko';
  if (cyrillic / letters > 0.3) return 'ru';
  if (arabic / letters > 0.3) return 'ar';
  const words = sample.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best = 'en';
  let bestScore = 0;
  for (const [lang, list] of Object.entries(STOPWORDS)) {
    const set = new Set(list);
    let score = 0;
    for (const w of words) if (set.has(w)) score++;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}
