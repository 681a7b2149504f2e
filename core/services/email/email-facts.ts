/** What the email detector sees: the parsed headers, the links with their fast-check verdicts, the attachments. */
export interface EmailAddress {
  name: string;
  address: string;
  /** The registrable domain of the address (`mail.example.co.uk` → `example.co.uk`), or its host part. */
  domain: string;
}

export interface EmailLink {
  url: string;
  /** The registrable domain (or tenant site) the fast URL check judged. */
  domain: string;
  /** What the fast URL check's reputation and lexicon advise: allow, approval_required or block. */
  action: 'allow' | 'approval_required' | 'block';
  category: string;
  risk: string;
  /** The registrable domain of the link's host (what `text_domain` is compared with). */
  registrable_domain: string;
  /** When the link's visible text is itself a URL or host: its registrable domain. */
  text_domain?: string;
}

export interface EmailFacts {
  from?: EmailAddress;
  reply_to: EmailAddress[];
  return_path?: EmailAddress;
  /** From Authentication-Results: the method results as written (`pass`, `fail`, `softfail`, `none`…). */
  authentication: { spf?: string; dkim?: string; dmarc?: string };
  attachments: { filename: string; content_type: string; size?: number }[];
  links: EmailLink[];
}
