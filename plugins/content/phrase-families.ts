// Lure wording, as families rather than sentences. Each family has two halves that a lure always joins: a
// *context* (what the page is about: a parcel, a subscription, an order, a shared file) and a *pressure* (what is
// wrong and what the visitor must do: a failed delivery and a fee, a payment that did not go through, an order on
// hold, a file locked behind a sign-in). Topic alone is every courier, shop and streaming site; pressure alone is
// every security notice. A family matches only when both halves do.
//
// Patterns run on normalised text (lower case, one space, typographic apostrophes folded). Each is a flat
// alternation with optional single words and bounded classes: no nested quantifiers, linear on any input.

export interface PhraseFamily {
  id: 'document_share' | 'parcel_shipping' | 'streaming_clone' | 'marketplace';
  context: readonly RegExp[];
  pressure: readonly RegExp[];
}

const FILE_NOUN =
  '(?:documents?|files?|folders?|pdfs?|attachments?|spreadsheets?|invoices?|contracts?|agreements?|fax(?:es)?|voicemails?|statements?)';

/** A payment that failed, said passively ("your payment could not be processed"): subscriptions and orders alike. */
const PAYMENT_DID_NOT_GO_THROUGH =
  /\b(?:payment|renewal|subscription|transaction|charge|card)s? (?:could not|couldn't|cannot|can't|was unable to|failed to) (?:be )?(?:processed|completed|authori[sz]ed|renewed|verified|charged|go through)\b|\b(?:problem|issue|trouble)s? with your (?:payment|card|billing|subscription|membership)\b/;

export const DOCUMENT_SHARE: PhraseFamily = {
  id: 'document_share',
  context: [
    new RegExp(
      `\\bshared (?:a |an |\\d{1,3} |some |new |the )?(?:secure |private |encrypted |important )?${FILE_NOUN}`,
    ),
    /\b(?:has|have) shared\b|\bshared with you\b|\bshared by\b/,
    new RegExp(
      `\\b(?:sent|sending) you (?:a |an |\\d{1,3} )?(?:new |secure |shared |encrypted |private )?${FILE_NOUN}`,
    ),
    new RegExp(
      `\\b(?:received|receive) (?:a |an |\\d{1,3} )?(?:new |secure |shared |encrypted |private )?${FILE_NOUN}`,
    ),
    /\b(?:onedrive|sharepoint|dropbox|docusign|wetransfer|google drive|adobe sign|adobe acrobat|adobe document cloud|e-?signature request)\b/,
    new RegExp(`\\b(?:new|secure|encrypted|shared|protected|confidential) (?:pdf |word |excel )?${FILE_NOUN}`),
    /\b(?:secure|shared|encrypted|protected) (?:document|file)s? (?:portal|viewer|center|centre|vault|access|delivery)\b/,
    // `please sign` only before what is signed: "please sign in" is every login page.
    /\b(?:review and sign|awaiting your signature|please (?:e-?)?sign (?:the|this|and|your|a)\b)/,
  ],
  pressure: [
    new RegExp(
      `\\b(?:view|open|access|download|review|retrieve|preview|read|unlock) (?:the |these |this |your |all |shared |secure |my )?${FILE_NOUN}`,
    ),
    /\b(?:verify|confirm|validate) (?:your )?(?:identity|email|e-mail|email address|account|access)\b/,
    /\b(?:sign|log)(?:ging)? ?in (?:again )?to (?:view|access|open|download|read|review|unlock)\b/,
    /\b(?:click|tap) (?:here |below )?to (?:view|open|access|download|read|review)\b/,
    /\b(?:enter|provide|confirm) your (?:email |e-mail |account |mailbox )?(?:password|credentials)\b|\bsign in with your (?:email|work|business|office|microsoft|company)\b/,
    new RegExp(`\\b${FILE_NOUN} (?:is |are )?(?:protected|encrypted|secured|restricted|password.protected|locked)\\b`),
    /\b(?:expires?|expiring|will expire) (?:in|within|after) \d{1,3} ?(?:hours?|hrs?|days?|minutes?)\b|\blink (?:expires|will expire|has expired)\b/,
  ],
};

export const PARCEL_SHIPPING: PhraseFamily = {
  id: 'parcel_shipping',
  context: [
    /\b(?:parcels?|packages?|shipments?|consignments?|couriers?|postage|redelivery|re-delivery|depot|customs clearance)\b/,
    /\b(?:tracking|consignment|waybill) (?:number|code|id)\b|\bdelivery (?:address|attempt|driver|fee|date|slot|notice)\b/,
  ],
  pressure: [
    /\b(?:delivery|shipment|parcel|package)(?: attempt)? (?:has |was )?(?:failed|unsuccessful|not successful)\b/,
    /\b(?:unable|could not|couldn't|were unable|was unable|failed) to deliver\b|\bwe (?:tried|attempted) to deliver\b|\bmissed (?:your )?delivery\b/,
    /\b(?:redelivery|re-delivery|customs|shipping|delivery|handling|storage|postage|import|clearance) (?:fee|charge|cost|duty|duties|tax)\b/,
    /\b(?:pay|paying|settle|payment of) (?:a |the |an |your )?(?:small |outstanding |remaining |unpaid |pending )?(?:fee|charge|amount|balance|duty|duties|postage)\b/,
    /\b(?:reschedule|re-schedule|rearrange|re-arrange|arrange a new|book a new|schedule a new) (?:your |the |a )?(?:delivery|redelivery|shipment)\b/,
    /\b(?:parcels?|packages?|shipments?|items?) (?:is |are |has been |have been )?(?:held|on hold|suspended|stopped|returned|awaiting (?:payment|customs|confirmation))\b/,
    /\b(?:address|label|postcode|zip code)(?: label)? (?:is |was )?(?:incomplete|invalid|incorrect|missing|wrong|unreadable)\b/,
    /\breturned to (?:the )?sender\b|\bconfirm (?:your )?(?:delivery |shipping |home )?(?:address|delivery details|shipping details)\b/,
  ],
};

export const STREAMING_CLONE: PhraseFamily = {
  id: 'streaming_clone',
  context: [
    /\b(?:streaming|stream|watchlist|shows|movies|films|series|episodes|playlists?|podcasts?|music|membership|subscription|subscriber)\b/,
    /\b(?:keep|continue|resume) (?:watching|streaming|listening)\b/,
  ],
  pressure: [
    /\b(?:membership|subscription|account|plan) (?:has been |is |was |will be |has |is now )?(?:on hold|suspended|paused|expired|cancell?ed|canceled|deactivated|interrupted|terminated|disabled|frozen)\b/,
    /\b(?:unable|could not|couldn't|failed|were unable|was unable) to (?:process|charge|renew|authori[sz]e|verify|validate|complete|collect) (?:your |the )?(?:last |latest |recent |most recent )?(?:monthly |annual |yearly )?(?:payment|billing|subscription|membership|renewal|charge|transaction)\b/,
    /\b(?:payment|card|transaction|billing|charge)(?: method)? (?:was |has been |is )?(?:declined|failed|unsuccessful|rejected)\b/,
    /\bupdate (?:your |the )?(?:payment|billing|card)(?: method| details| information| info)?\b/,
    PAYMENT_DID_NOT_GO_THROUGH,
    /\b(?:restart|reactivate|renew|restore|resume|reinstate) (?:your )?(?:membership|subscription|account|service|plan)\b/,
  ],
};

export const MARKETPLACE: PhraseFamily = {
  id: 'marketplace',
  context: [
    /\b(?:your order|order (?:#|no\.?|number|id)|orders?|purchases?|sellers?|buyers?|marketplace|shopping cart|checkout|prime|refunds?|listings?)\b/,
  ],
  pressure: [
    /\b(?:order|account|payment|purchase|listing|transaction|refund|membership)s? (?:#?[a-z0-9-]{1,24} )?(?:is |are |has been |have been |was |will be )?(?:on hold|suspended|locked|restricted|limited|cancell?ed|canceled|blocked|frozen|flagged|under review|held|disabled)\b/,
    /\b(?:could not|couldn't|unable to|failed to|were unable to|was unable to) (?:verify|confirm|process|validate|authori[sz]e|charge) (?:the |your )?(?:payment|card|billing|account|order|purchase|identity)\b/,
    /\b(?:verify|validate|update|re-?confirm|confirm) (?:your |the )?(?:account|identity|payment|billing|card)(?: and (?:your )?(?:account|identity|payment|billing|card))?(?: details| information| info| method)?\b/,
    /\b(?:avoid|prevent) (?:the )?(?:cancell?ation|suspension|closure|termination|losing access|account closure)\b/,
    /\b(?:release|unlock|restore|reactivate) (?:your |the )?(?:order|account|payment|shipment|funds|purchase)\b/,
    /\bunusual (?:activity|sign-?in|login|purchase)\b|\bsuspicious (?:activity|purchase|login|sign-?in)\b/,
    PAYMENT_DID_NOT_GO_THROUGH,
  ],
};

export const FAMILIES: readonly PhraseFamily[] = [DOCUMENT_SHARE, PARCEL_SHIPPING, STREAMING_CLONE, MARKETPLACE];

/** Page text as phrase matching wants it: bounded, compatibility-folded, lower case, one space between words. */
export function normalizeText(text: string, maxChars = 100_000): string {
  return text
    .slice(0, maxChars)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, ' ');
}

export interface FamilyMatch {
  matched: boolean;
  /** The text each matching pattern found (first match per pattern), context first. */
  phrases: string[];
}

const MAX_PHRASE_CHARS = 80;

function firstMatches(patterns: readonly RegExp[], text: string): string[] {
  const found: string[] = [];
  for (const p of patterns) {
    const m = p.exec(text);
    if (m) found.push(m[0].trim().slice(0, MAX_PHRASE_CHARS));
  }
  return found;
}

/**
 * `text` must already be normalised. `extraContext` counts as context found elsewhere (a brand the page claims,
 * a kit's route shape) and is reported by the caller, not among the phrases.
 */
export function matchFamily(family: PhraseFamily, text: string, extraContext: readonly string[] = []): FamilyMatch {
  const context = firstMatches(family.context, text);
  const pressure = firstMatches(family.pressure, text);
  const hasContext = context.length > 0 || extraContext.length > 0;
  return { matched: hasContext && pressure.length > 0, phrases: [...new Set([...context, ...pressure])] };
}
