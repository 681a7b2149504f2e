// @peculiar/x509 uses tsyringe internally, which needs the Reflect polyfill loaded first.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';
import type { LabCert } from './site-model.ts';

const crypto = webcrypto;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
x509.cryptoProvider.set(crypto as unknown as Parameters<typeof x509.cryptoProvider.set>[1]);

// ECDSA P-256: key generation takes a millisecond where RSA-2048 takes tens to hundreds.
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export interface PemPair {
  cert: string;
  key: string;
  /** Leaf then intermediate, as a server sends it. */
  chain: string;
}

function pemKey(pkcs8: ArrayBuffer): string {
  const body = Buffer.from(pkcs8).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN PRIVATE KEY-----\n${body}${body.endsWith('\n') ? '' : '\n'}-----END PRIVATE KEY-----\n`;
}

/** x509's PEM has no final newline; chains are concatenations, so normalise. */
function pemOf(cert: x509.X509Certificate): string {
  const pem = cert.toString('pem');
  return pem.endsWith('\n') ? pem : `${pem}\n`;
}

function generateKeys(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

function name(cn: string, o?: string): x509.JsonName {
  return o ? [{ O: [o] }, { CN: [cn] }] : [{ CN: [cn] }];
}

function sanExtension(sans: readonly string[]): x509.SubjectAlternativeNameExtension {
  return new x509.SubjectAlternativeNameExtension(
    sans.map((value) => (isIP(value) ? { type: 'ip' as const, value } : { type: 'dns' as const, value })),
  );
}

/**
 * The lab's certificate authority. One root; one intermediate per issuer name a site asks for (so the issuer CN/O
 * a client reads is the site's choice); one key pair shared by every leaf (keys are generated once per lab).
 */
export class LabPki {
  private readonly intermediates = new Map<string, Promise<{ cert: x509.X509Certificate; pem: string }>>();
  // Every leaf shares one key and one issuing key, so their key-identifier extensions are computed once.
  private keyIdentifiers?: Promise<[x509.Extension, x509.Extension]>;

  private constructor(
    readonly rootPem: string,
    private readonly root: x509.X509Certificate,
    private readonly rootKeys: CryptoKeyPair,
    private readonly intermediateKeys: CryptoKeyPair,
    private readonly leafKeys: CryptoKeyPair,
    readonly leafKeyPem: string,
    private readonly now: number,
  ) {}

  static async create(now: number): Promise<LabPki> {
    const [rootKeys, intermediateKeys, leafKeys] = await Promise.all([generateKeys(), generateKeys(), generateKeys()]);
    const root = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: name('Preflight Lab Root CA', 'Preflight Lab'),
      notBefore: new Date(now - 20 * 365 * DAY),
      notAfter: new Date(now + 20 * 365 * DAY),
      signingAlgorithm: ALGORITHM,
      keys: rootKeys,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
      ],
    });
    const leafKeyPem = pemKey(await crypto.subtle.exportKey('pkcs8', leafKeys.privateKey));
    return new LabPki(pemOf(root), root, rootKeys, intermediateKeys, leafKeys, leafKeyPem, now);
  }

  private intermediate(cn: string, o?: string): Promise<{ cert: x509.X509Certificate; pem: string }> {
    const key = `${cn}\u0000${o ?? ''}`;
    let pending = this.intermediates.get(key);
    if (!pending) {
      pending = (async () => {
        const cert = await x509.X509CertificateGenerator.create({
          serialNumber: Buffer.from(key).toString('hex').slice(0, 30).padStart(2, '1'),
          subject: name(cn, o),
          issuer: this.root.subject,
          notBefore: new Date(this.now - 19 * 365 * DAY),
          notAfter: new Date(this.now + 19 * 365 * DAY),
          signingAlgorithm: ALGORITHM,
          publicKey: this.intermediateKeys.publicKey,
          signingKey: this.rootKeys.privateKey,
          extensions: [
            new x509.BasicConstraintsExtension(true, 0, true),
            new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
            await x509.SubjectKeyIdentifierExtension.create(this.intermediateKeys.publicKey),
            await x509.AuthorityKeyIdentifierExtension.create(this.rootKeys.publicKey),
          ],
        });
        return { cert, pem: pemOf(cert) };
      })();
      this.intermediates.set(key, pending);
    }
    return pending;
  }

  /** A server certificate with exactly the site's subject, issuer, SANs and validity. */
  async leaf(spec: LabCert): Promise<PemPair> {
    const extensions: x509.Extension[] = [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      sanExtension(spec.sans),
    ];
    this.keyIdentifiers ??= Promise.all([
      x509.SubjectKeyIdentifierExtension.create(this.leafKeys.publicKey),
      x509.AuthorityKeyIdentifierExtension.create(this.intermediateKeys.publicKey),
    ]);
    const [subjectKeyId, authorityKeyId] = await this.keyIdentifiers;
    extensions.push(subjectKeyId);
    if (spec.selfSigned) {
      const cert = await x509.X509CertificateGenerator.createSelfSigned({
        serialNumber: spec.serial,
        name: name(spec.subjectCn, spec.issuerOrg),
        notBefore: spec.notBefore,
        notAfter: spec.notAfter,
        signingAlgorithm: ALGORITHM,
        keys: this.leafKeys,
        extensions,
      });
      const pem = pemOf(cert);
      return { cert: pem, key: this.leafKeyPem, chain: pem };
    }
    const issuer = await this.intermediate(spec.issuerCn, spec.issuerOrg);
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: spec.serial,
      subject: name(spec.subjectCn),
      issuer: issuer.cert.subject,
      notBefore: spec.notBefore,
      notAfter: spec.notAfter,
      signingAlgorithm: ALGORITHM,
      publicKey: this.leafKeys.publicKey,
      signingKey: this.intermediateKeys.privateKey,
      extensions: [...extensions, authorityKeyId],
    });
    const pem = pemOf(cert);
    return { cert: pem, key: this.leafKeyPem, chain: `${pem}${issuer.pem}` };
  }
}
