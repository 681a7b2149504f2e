import { defineDetector, type Finding, type PluginModule } from '../../core/plugin-api.ts';
import { certificateFields, recentCertificateFinding } from './certificate.ts';
import { DEFAULT_SSL_CONFIG, SSL_CONFIG_SCHEMA, type SslConfig } from './config.ts';
import { hostContext, hostContextLines } from './host-context.ts';
import { missingHstsFinding } from './hsts.ts';
import weights from './weights.json' with { type: 'json' };

const detector = defineDetector<Record<string, never>, SslConfig>({
  meta: {
    id: 'ssl',
    version: '1.0.0',
    description:
      'The served TLS certificate (issuer, subject, age), HSTS on the final HTTPS response, and the host context behind it (fingerprints, address, vendor host intelligence).',
    surfaces: ['scan'],
    flags: {
      'ssl:very_recent_certificate': {
        description: 'Certificate issued within 7 days. Low weight, corroborating only.',
      },
      'ssl:missing_hsts': {
        description: 'The final HTTPS response carries no (effective) Strict-Transport-Security header.',
      },
    },
    configSchema: SSL_CONFIG_SCHEMA,
    defaultConfig: DEFAULT_SSL_CONFIG,
    bestEffort: true,
    timeoutMs: 1_000,
  },
  deps: {},
  create: ({ config }) => ({
    detect(ctx) {
      const evidence = ctx.evidence;
      if (!evidence) return { findings: [] };
      const findings: Finding[] = [];
      const data: Record<string, unknown> = {};
      if (evidence.tls.ok) {
        data.ssl = certificateFields(evidence.tls.value);
        const recent = recentCertificateFinding(evidence.tls.value, config.recentCertificateMaxDays);
        if (recent) findings.push(recent);
      }
      const hsts = missingHstsFinding(evidence.page, config.minHstsMaxAgeSeconds);
      if (hsts) findings.push(hsts);
      const context = hostContext(evidence);
      const hostIntelFailure = evidence.hostIntel.ok ? undefined : evidence.hostIntel.reason;
      data['ssl.data.host_context'] = context;
      data['ssl.data.host_context_evidence'] = hostContextLines(context, hostIntelFailure);
      return { findings, data };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights };
